/**
 * Where the external programs the tests run live. The vitest global set-up
 * (test/global-setup/tools.ts) looks each one up once and hands the answer to every worker
 * in AGENT_MANAGER_TEST_TOOLS; outside vitest (the benchmarks) the same PATH scan runs
 * here. Neither starts a shell: a `command -v` per file cost a fork of a grown worker.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The programs tests may run, by the name they are called. */
export const TEST_TOOLS = ['kubectl', 'docker-registry', 'htpasswd', 'prometheus', 'promtool', 'git', 'mcp-inspector', 'helm'] as const;
export type TestTool = (typeof TEST_TOOLS)[number];

export const TOOLS_ENV = 'AGENT_MANAGER_TEST_TOOLS';

/** Tools the test set-up installs itself (scripts/test-setup.mjs) live below this folder. */
export const TEST_TOOLS_DIR = fileURLToPath(new URL('../../.cache/test-tools/', import.meta.url));

/** The folders searched, in order: the set-up's own tools, then PATH. */
function searchPath(): string[] {
  return [join(TEST_TOOLS_DIR, 'bin'), ...(process.env.PATH ?? '').split(delimiter).filter(Boolean)];
}

/** The first executable `name` on the search path, without a shell. */
export function findTool(name: string): string | undefined {
  for (const dir of searchPath()) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Every test tool and where it is (null: absent), as the global set-up provides them. */
export function locateTestTools(): Record<TestTool, string | null> {
  const found = TEST_TOOLS.map((name) => [name, findTool(name) ?? null]);
  return Object.fromEntries(found) as Record<TestTool, string | null>;
}

/** The path of `name`: from the global set-up's answer when there is one, else a PATH scan. */
export function testTool(name: TestTool): string | undefined {
  const provided = process.env[TOOLS_ENV];
  if (provided) {
    const found = (JSON.parse(provided) as Partial<Record<TestTool, string | null>>)[name];
    if (found !== undefined) return found ?? undefined;
  }
  return findTool(name);
}

/** `run`, `skip` (absent on a developer machine) or `fail` (absent in CI, where the set-up installs it). */
export function toolTestMode(names: readonly TestTool[], install: string): { mode: 'run' | 'skip' | 'fail'; reason: string } {
  const missing = names.filter((name) => testTool(name) === undefined);
  if (missing.length === 0) return { mode: 'run', reason: names.map((name) => `${name} at ${testTool(name)}`).join(', ') };
  const reason = `${missing.join(' and ')} not installed (${install}, or node scripts/test-setup.mjs)`;
  return { mode: process.env.CI === 'true' ? 'fail' : 'skip', reason };
}

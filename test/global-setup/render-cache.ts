/**
 * Vitest global set-up: the folder where the chart suites keep what the real helm rendered or
 * linted for a set of values (test/chart-package/render-store.ts), so files rendering the same
 * values, in any worker and in later runs of the same tree, run helm once. A helm run is a pure
 * function of the chart's files, the helm binary, the test code that calls it and the values (the
 * chart reads no clock, randomness or cluster), so the folder is named by a hash of all but the
 * values, a change to any of them starting a new folder; folders unused for a day are removed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testTool } from '../support/test-tools.js';

export const RENDER_CACHE_ENV = 'AGENT_MANAGER_TEST_RENDERS';
/** Set (to anything), the run renders afresh in a folder of its own, as a fresh clone does. */
export const FRESH_RENDERS_ENV = 'AGENT_MANAGER_TEST_FRESH_RENDERS';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the folders live: beside vitest's own module cache, so a fresh `npm ci` starts empty. */
export const RENDER_CACHE_ROOT = join(ROOT, 'node_modules', '.cache', 'agent-manager-renders');
/** The test code that decides how helm runs and what is kept of its answer. */
const CALLERS = ['helm.ts', 'helm-run.ts', 'helm-lint.ts', 'render-store.ts'].map((f) => join(ROOT, 'test', 'chart-package', f));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
}

/**
 * The name of the folder for this chart, helm and test code: a hash of every chart file (path and
 * content), of the calling test files, and of the helm binary's path, size and modification time.
 */
export function renderCacheName(chartDir: string, helm: string, callers: readonly string[] = CALLERS): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(chartDir), ...callers]) {
    hash.update(`${relative(chartDir, file)}\0`).update(readFileSync(file)).update('\0');
  }
  const binary = realpathSync(helm);
  const { size, mtimeMs } = statSync(binary);
  hash.update(`${binary}\0${size}\0${mtimeMs}`);
  return hash.digest('hex').slice(0, 16);
}

/** How long a folder no run has used is kept: another run in this tree may still be using a newer one. */
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * Makes the folder `name` under `root`, marks it used now, and removes the folders no run has used
 * for a day (older charts or helms). A younger one stays: a run beside this one may be writing it.
 */
export function useFolder(root: string, name: string, now = Date.now()): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  utimesSync(dir, new Date(now), new Date(now));
  for (const other of readdirSync(root)) {
    if (other !== name && statSync(join(root, other)).mtimeMs < now - UNUSED_FOR_MS) {
      rmSync(join(root, other), { recursive: true, force: true });
    }
  }
  return dir;
}

export default function setup(): (() => void) | undefined {
  const helm = process.env.HELM || testTool('helm');
  if (process.env[FRESH_RENDERS_ENV] || !helm) {
    // No helm (its suites skip or fail saying so) or a fresh run asked for: a folder for this run only.
    const dir = mkdtempSync(join(tmpdir(), 'agent-manager-renders-'));
    process.env[RENDER_CACHE_ENV] = dir;
    return () => rmSync(dir, { recursive: true, force: true });
  }
  process.env[RENDER_CACHE_ENV] = useFolder(RENDER_CACHE_ROOT, renderCacheName(join(ROOT, 'helm', 'agent-manager'), helm));
  return undefined;
}

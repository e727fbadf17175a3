/**
 * The real kubectl for the suites that drive the sandbox with it: found once by the
 * repository's vitest global set-up (AGENT_MANAGER_TEST_TOOLS), else on PATH, without a
 * shell; `run` answers its exit code and output whatever they are.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function located(): string | undefined {
  const provided = process.env.AGENT_MANAGER_TEST_TOOLS;
  if (provided) {
    const found = (JSON.parse(provided) as { kubectl?: string | null }).kubectl;
    if (found !== undefined) return found ?? undefined;
  }
  return onPath('kubectl');
}

/** kubectl's path, or undefined where it is not installed. */
export const KUBECTL = located();

/** Why a kubectl suite is skipped, for its title. */
export const KUBECTL_ABSENT = 'kubectl is not installed (install kubectl v1.32, or put it on PATH, to run this suite)';

export interface KubectlRun { code: number; stdout: string; stderr: string }

/**
 * Runs kubectl with `args` and `env`; never rejects. Go's garbage collector is off (GOGC=off): a
 * run lives a tenth of a second, and collecting was a large part of its CPU.
 */
export function runKubectl(args: readonly string[], env: NodeJS.ProcessEnv): Promise<KubectlRun> {
  return new Promise((resolve) => {
    const options = { env: { GOGC: 'off', ...env }, timeout: 20_000 };
    execFile(KUBECTL ?? 'kubectl', [...args], options, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

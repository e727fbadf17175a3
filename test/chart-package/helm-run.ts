/**
 * The real helm (v4; scripts/test-setup.mjs installs it into .cache/test-tools/bin, HELM
 * overrides it), run with values on stdin.
 */
import { spawnSync } from 'node:child_process';
import { stringify } from 'yaml';
import { testTool } from '../support/test-tools.js';

let binary: string | undefined;
export function helmBinary(): string {
  binary ??= process.env.HELM || testTool('helm');
  if (!binary) throw new Error('helm v4 is not installed: run `node scripts/test-setup.mjs` (npm test does), or set HELM');
  return binary;
}

/**
 * Runs helm with `values` as the `-f -` file; its exit status and output. Without Go's garbage
 * collector (GOGC=off): a run lives a tenth of a second and stays near 60 MB, and collecting
 * was a quarter of its CPU.
 */
export function runHelm(
  args: readonly string[], values: Record<string, unknown> = {},
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(helmBinary(), [...args, '-f', '-'], {
    input: stringify(values), encoding: 'utf8', timeout: 60_000, maxBuffer: 16 << 20,
    env: { ...process.env, GOGC: 'off' },
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

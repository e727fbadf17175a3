#!/usr/bin/env node
/**
 * The entry of `agent-manager` (`node dist/main.js`, the package's bin, the image): checks
 * the Node.js version before anything else is loaded, then runs the CLI (cli.ts). On an
 * older Node the modules would fail to link with an error that names an export, not the
 * cause (`does not provide an export named …`), so this file imports nothing statically
 * and says in one line which Node it needs and how to run it with the project's own.
 */

/** The oldest Node.js this runs on: package.json's `engines.node` (a test keeps them equal). */
export const MIN_NODE = '24.11';

/** The refusal for a Node older than MIN_NODE, or undefined when `version` (`24.11.0`) will do. */
export function nodeVersionProblem(version: string, execPath: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split('.').map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `agent-manager needs Node.js ${MIN_NODE} or newer, but ${execPath} is Node.js ${version}; `
    + 'run it with the project\'s Node: npm start, npx agent-manager, or node_modules/.bin/node dist/main.js';
}

/**
 * Runs the CLI with `args` and sets the exit code (scripts/start.mjs, `npm start`, calls it after
 * the build, in the same process).
 */
export async function runMain(args: readonly string[]): Promise<void> {
  // V8's code cache on disk (in the OS temp directory, or NODE_COMPILE_CACHE): every start
  // after the first skips compiling the modules `serve` loads (the Kubernetes client alone
  // is thousands of files), which roughly halves the time to a listening server. Where the
  // directory is not writable (a read-only root filesystem) Node carries on without it.
  (await import('node:module')).enableCompileCache();
  const { runCli } = await import('./cli.js');
  process.exitCode = await runCli([...args], process.env);
}

/** Runs the CLI when this file is what node was asked to run (not when a test imports it). */
async function main(): Promise<void> {
  const { realpathSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const script = process.argv[1];
  let entry: boolean;
  try {
    entry = script !== undefined && realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    entry = false;
  }
  if (entry) await runMain(process.argv.slice(2));
}

// No top-level await, so that even a Node too old to parse one gets here and reads the line.
const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem !== undefined) {
  process.stderr.write(`Error: ${problem}\n`);
  process.exit(1);
}
main().catch((err: unknown) => {
  process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});

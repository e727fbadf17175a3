/**
 * The `agent-manager` command: parse the command line and environment, then print help or the version, or hand
 * the typed configuration to `serve`, `sandbox` or `migrate`. Exit codes: 0 done, 2 configuration error
 * (`Error: <message>` on stderr; a listen address that cannot be bound counts as one), 1 runtime failure, 3
 * (migrate) an operator must act, the reason on the last line of stdout.
 * main.ts checks the Node version and then loads this module; the sandbox is reached
 * only through a dynamic import, when it is asked for.
 */
import { asObject } from './core/json.js';
import { buildInfo, helpText, parseConfig } from './config/index.js';
import { createLogger, type Logger } from './log/logger.js';
import { loadSandboxCli, SandboxNotInstalledError } from './sandbox-cluster.js';

/** Where the CLI writes; injected by tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Build the root logger; default: the pino root logger on stderr. */
  readonly createLogger?: (verbose: boolean) => Logger;
}

const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Run the CLI with `argv` (without node and the script) and return the exit code. */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo = processIo,
): Promise<number> {
  const parsed = parseConfig(argv, env);
  switch (parsed.kind) {
    case 'error':
      io.stderr(`Error: ${parsed.message}\n`);
      return 2;
    case 'help':
      io.stdout(helpText(parsed.topic));
      return 0;
    case 'version': {
      const info = buildInfo(env);
      io.stdout(parsed.format === 'line'
        ? `agent-manager version ${info.version}\n`
        : `agent-manager version ${info.version}\n  commit: ${info.commit}\n  built:  ${info.built}\n`);
      return 0;
    }
    case 'serve':
    case 'sandbox':
    case 'migrate':
      break;
  }
  const log = (io.createLogger ?? ((verbose) => createLogger({ verbose })))(parsed.config.verbose);
  try {
    if (parsed.kind === 'migrate') {
      return await (await import('./migrate.js')).runMigrate(parsed.config, log, io.stdout);
    }
    if (parsed.kind === 'serve') {
      await (await import('./serve.js')).runServe(parsed.config, log);
    } else {
      // A dynamic import: the sandbox is loaded only when it is asked for.
      await (await loadSandboxCli()).runSandbox(parsed.config, log);
    }
    return 0;
  } catch (err) {
    if (err instanceof SandboxNotInstalledError) {
      io.stderr(`Error: ${err.message}\n`);
      return 2;
    }
    // Runtime failures: one line, no stack trace (it may carry request data). An error
    // that carries `exitCode: 2` is a configuration problem (a listen address in use):
    // its message already names the flag to change.
    const message = err instanceof Error ? err.message : String(err);
    log.error({ error: message }, `${parsed.kind} failed`);
    io.stderr(`Error: ${message}\n`);
    return asObject(err).exitCode === 2 ? 2 : 1;
  }
}

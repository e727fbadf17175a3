/**
 * `parseConfig(argv, env)`: the whole command line and environment in, one typed result
 * out. Pure: it reads nothing but its arguments and never exits, so every rule is a
 * unit test. `main.ts` acts on the result.
 */
import { describeProxy, proxySettingsFrom, proxyUrlProblem, type ProxySettings } from '../net/proxy-settings.js';
import { otelSettingsFrom, OtelSettingsError, type OtelSettings } from '../tracing/otel-settings.js';
import type { AppConfig } from './app-config.js';
import {
  COMMANDS, MIGRATE_FLAGS, RETIRED_SERVE_FLAGS, SANDBOX_FLAGS, SERVE_FLAGS, VERSION_FLAGS, type CommandName,
} from './flags.js';
import { buildMigrateConfig, type MigrateCommandConfig } from './migrate-config.js';
import type { HelpTopic } from './help.js';
import { ConfigError, resolveFlags } from './resolve.js';
import { buildSandboxConfig } from './sandbox-cluster-command.js';
import type { SandboxCommandConfig } from './sandbox-cluster-config.js';
import { buildServeConfig } from './serve-config.js';
import { parseGoBool, ValueError } from './values.js';

/** What the command line asks for. */
export type ParseResult =
  | { readonly kind: 'serve'; readonly config: AppConfig }
  | { readonly kind: 'sandbox'; readonly config: SandboxCommandConfig }
  | { readonly kind: 'migrate'; readonly config: MigrateCommandConfig & { proxy: ProxySettings } }
  /** `line` for `--version`, `full` for the `version` command. */
  | { readonly kind: 'version'; readonly format: 'line' | 'full' }
  | { readonly kind: 'help'; readonly topic: HelpTopic }
  /** A configuration error: print `Error: <message>` and exit 2. */
  | { readonly kind: 'error'; readonly message: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Parse `argv` (without node and the script) and `env`. Never throws for bad input. */
export function parseConfig(argv: readonly string[], env: Env): ParseResult {
  try {
    return parse(argv, env);
  } catch (err) {
    if (err instanceof ConfigError) return { kind: 'error', message: err.message };
    throw err;
  }
}

function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

function parse(argv: readonly string[], env: Env): ParseResult {
  // Root flags before the command: -h/--help, --version and the persistent -v/--verbose.
  let i = 0;
  let help = false;
  let version = false;
  let verbose: boolean | undefined;
  for (; i < argv.length && argv[i]!.startsWith('-'); i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '--version') version = true;
    else if (arg === '-v' || arg === '--verbose') verbose = true;
    else if (arg.startsWith('--verbose=')) verbose = rootBool('verbose', arg.slice('--verbose='.length));
    else throw new ConfigError(`unknown flag: ${arg} (see agent-manager --help)`);
  }
  const command = argv[i];
  const rest = argv.slice(i + 1);
  if (version) return { kind: 'version', format: 'line' };
  if (command === undefined) return { kind: 'help', topic: 'root' };
  if (command === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { kind: 'help', topic: 'root' };
    if (!isCommand(topic)) {
      throw new ConfigError(`unknown help topic ${JSON.stringify(topic)}: want ${Object.keys(COMMANDS).join(', ')}`);
    }
    return { kind: 'help', topic };
  }
  if (!isCommand(command)) {
    throw new ConfigError(`unknown command ${JSON.stringify(command)} for "agent-manager" (want ` +
      `${Object.keys(COMMANDS).join(', ')})`);
  }
  if (help) return { kind: 'help', topic: command };
  // The root -v goes first so a later --verbose=false on the command still wins.
  const args = verbose === undefined ? rest : [`--verbose=${verbose}`, ...rest];
  const path = `agent-manager ${command}`;
  switch (command) {
    case 'serve': {
      const r = resolveFlags(SERVE_FLAGS, args, env, path, RETIRED_SERVE_FLAGS);
      return r.help ? { kind: 'help', topic: 'serve' }
        : { kind: 'serve', config: { ...buildServeConfig(r.values, r.sources), proxy: proxyConfig(env),
            otel: otelConfig(env) } };
    }
    case 'sandbox': {
      const r = resolveFlags(SANDBOX_FLAGS, args, env, path);
      return r.help ? { kind: 'help', topic: 'sandbox' } : { kind: 'sandbox', config: buildSandboxConfig(r.values) };
    }
    case 'migrate': {
      const r = resolveFlags(MIGRATE_FLAGS, args, env, path);
      return r.help ? { kind: 'help', topic: 'migrate' }
        : { kind: 'migrate', config: { ...buildMigrateConfig(r.values, r.sources), proxy: proxyConfig(env) } };
    }
    case 'version': {
      const r = resolveFlags(VERSION_FLAGS, rest, env, path);
      return r.help ? { kind: 'help', topic: 'version' } : { kind: 'version', format: 'full' };
    }
  }
}

/** The proxy variables; one that is not a usable proxy URL stops startup, naming it. */
function proxyConfig(env: Env): ProxySettings {
  const settings = proxySettingsFrom(env);
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY'] as const) {
    const text = name === 'HTTPS_PROXY' ? settings.httpsProxy : settings.httpProxy;
    const problem = proxyUrlProblem(text);
    if (problem) {
      const which = env[name.toLowerCase()] ? name.toLowerCase() : name;
      throw new ConfigError(`${which} ${JSON.stringify(describeProxy(text) ?? text)}: ${problem}`);
    }
  }
  return settings;
}

/** The OTEL_* variables; one that cannot be used stops startup, naming it. */
function otelConfig(env: Env): OtelSettings {
  try {
    return otelSettingsFrom(env);
  } catch (err) {
    if (err instanceof OtelSettingsError) throw new ConfigError(err.message);
    throw err;
  }
}

function rootBool(name: string, text: string): boolean {
  try {
    return parseGoBool(text);
  } catch (err) {
    if (err instanceof ValueError) throw new ConfigError(`--${name} ${JSON.stringify(text)}: ${err.message}`);
    throw err;
  }
}

/**
 * The config module's public face: the flag tables (for `--help` and the docs
 * generator), `parseConfig`, the typed configuration slices and the startup summary.
 */
export type * from './app-config.js';
export type { FlagDef, FlagSource, FlagType } from './flag-types.js';
export type { SandboxAuthorization, SandboxCommandConfig, SandboxOidcConfig,
  ServeSandboxConfig } from './sandbox-cluster-config.js';
export { COMMANDS, SANDBOX_FLAGS, SERVE_FLAGS, VERSION_FLAGS, type CommandName } from './flags.js';
export { formatDefault, formatFlagName, helpText, type HelpTopic } from './help.js';
export { parseConfig, type ParseResult } from './parse-config.js';
export { redactedSummary } from './summary.js';
export { parseListenAddress, type ListenAddress } from './values.js';
export { buildInfo, packageVersion, type BuildInfo } from './build-info.js';

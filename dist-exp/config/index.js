export { COMMANDS, SANDBOX_FLAGS, SERVE_FLAGS, VERSION_FLAGS } from './flags.js';
export { formatDefault, formatFlagName, helpText } from './help.js';
export { parseConfig } from './parse-config.js';
export { redactedSummary } from './summary.js';
export { parseListenAddress } from './values.js';
export { buildInfo, packageVersion } from './build-info.js';
//# sourceMappingURL=index.js.map
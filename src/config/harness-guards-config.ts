/**
 * The claude-Harness guards' settings: `--harness-egress` parsed into the platform's origins per Harness
 * (core/guards/harness-egress.ts, refused at startup in its words, so a typo never narrows or widens what
 * agents reach), and `--muster-token-file`, the bearer for muster when requests carry no caller token. With
 * `--enable-oauth` the caller's own token is presented, so a token file there is refused rather than
 * silently ignored.
 */
import { parseHarnessEgress } from '../core/guards/harness-egress.js';
import type { HarnessGuardsConfig } from './app-config.js';
import type { FlagDef, FlagSources, FlagValues } from './flag-types.js';
import { SERVE_FLAGS, type ServeFlags } from './flags.js';
import { ConfigError, flagDef, valueError } from './resolve.js';

const def = (name: 'harness-egress' | 'muster-token-file'): FlagDef => flagDef(SERVE_FLAGS, name);

/** The guards' settings from the parsed flags. Throws ConfigError. */
export function buildHarnessGuardsConfig(v: FlagValues<ServeFlags>, s: FlagSources<ServeFlags>): HarnessGuardsConfig {
  const parsed = parseHarnessEgress(v['harness-egress']);
  if ('problem' in parsed) {
    throw valueError(def('harness-egress'), s['harness-egress'], v['harness-egress'], parsed.problem);
  }
  const musterTokenFile = v['muster-token-file'].trim();
  if (musterTokenFile !== '' && v['enable-oauth']) {
    throw new ConfigError('--muster-token-file is for installations without --enable-oauth: with OAuth the toolset ' +
      "check presents the caller's own token to muster; drop the flag (AGENT_MANAGER_MUSTER_TOKEN_FILE)");
  }
  return { egress: parsed.egress, musterTokenFile };
}

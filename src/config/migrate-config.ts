/**
 * The `migrate` command's configuration: the serve configuration the migration's AgentService is built from (the
 * shared flags as given, every serve-only flag at its default, so nothing of a server — listeners, OAuth — is
 * configured by accident) and the migration's own settings. `--harness-name` counts only when given on the command
 * line: the Helm chart sets its variable for serve, and it must not silently map python agents to a Harness.
 */
import type { ChartLine } from '../core/chart-lines/major-line.js';
import { lineOfRange } from '../chart/line-range.js';
import type { AppConfig } from './app-config.js';
import type { FlagSources, FlagValues } from './flag-types.js';
import { SERVE_FLAGS, type MIGRATE_OWN_FLAGS, type ServeFlags } from './flags.js';
import { ConfigError, resolveFlags } from './resolve.js';
import { buildServeConfig } from './serve-config.js';

type Phase = 'expand' | 'wait' | 'contract';

/** What `agent-manager migrate` runs with. */
export interface MigrateCommandConfig {
  app: Omit<AppConfig, 'proxy' | 'otel'>;
  verbose: boolean;
  namespaces: readonly string[];
  gitopsNamespaces: readonly string[];
  to: ChartLine;
  phases: readonly Phase[];
  timeoutMs: number;
  dryRun: boolean;
  reportConfigMap: string;
  /** `--harness-name` when given on the command line. */
  harnessName?: string;
}

const DNS1123 = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Builds the configuration from the migrate table's values. Throws ConfigError. */
export function buildMigrateConfig(
  values: Record<string, unknown>, sources: Record<string, string>,
): MigrateCommandConfig {
  const defaults = resolveFlags(SERVE_FLAGS, [], {}, 'agent-manager serve');
  if (defaults.help) throw new ConfigError('unexpected help');
  const shared = Object.fromEntries(Object.entries(values).filter(([k]) => Object.hasOwn(defaults.values, k)));
  const sharedSources = Object.fromEntries(Object.entries(sources).filter(([k]) => Object.hasOwn(defaults.values, k)));
  // safe: `shared` holds only keys of the serve table, each parsed by that same serve row (MIGRATE_FLAGS reuses the
  // rows), so the merge has every serve key with its serve type.
  const serveValues = { ...defaults.values, ...shared } as FlagValues<ServeFlags>;
  // safe: as the values above, with the sources of the same keys.
  const serveSources = { ...defaults.sources, ...sharedSources } as FlagSources<ServeFlags>;
  const app = buildServeConfig(serveValues, serveSources);
  // safe: `values` came from resolving MIGRATE_FLAGS, which ends with every MIGRATE_OWN_FLAGS row.
  const own = values as FlagValues<typeof MIGRATE_OWN_FLAGS>;
  const to = lineOfRange(app.chart.semver);
  if (!to) {
    throw new ConfigError(`--agent-chart-semver "${app.chart.semver}" follows no chart line migrate can move to; use ` +
      '2.x (or a range of it) to move to 2.x, 0.x to move back');
  }
  const name = own['report-configmap'];
  if (!DNS1123.test(name) || name.length > 253) {
    throw new ConfigError(`--report-configmap "${name}" must be a ConfigMap name (lowercase letters, digits, "-" and ` +
      '".")');
  }
  const phase = own.phase;
  return {
    app, verbose: Boolean(values.verbose), namespaces: own.namespaces, gitopsNamespaces: own['gitops-namespaces'], to,
    phases: phase === 'all' ? ['expand', 'wait', 'contract'] : [phase],
    timeoutMs: own.timeout.ms, dryRun: own['dry-run'], reportConfigMap: name,
    ...(sources['harness-name'] === 'flag' ? { harnessName: String(values['harness-name']) } : {}),
  };
}

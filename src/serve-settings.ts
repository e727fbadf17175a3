/**
 * The service settings serve derives from the configuration beside the flags it passes on as they are: what
 * composition writes into the Flux objects, what agents of chart 2.x are composed with, how the claude-Harness
 * guards ask muster, and which browser origins the app accepts.
 */
import type { AppConfig, FleetConfig } from './config/index.js';
import type { ComposeConfig } from './core/writes/compose.js';
import type { ApiVersions } from './service/resources.js';
import { readMusterToken } from './muster/token-file.js';
import { ManagedNamespaces } from './service/namespaces.js';
import type { ClaudeGuardSettings, ServiceSettings } from './service/settings.js';

/** muster's in-cluster MCP URL on the platform, the chart's `muster.url` default. */
export const DEFAULT_MUSTER_URL = 'http://muster.agent-platform.svc.cluster.local:8090/mcp';

/**
 * What agents of chart 2.x are composed with; empty flags write nothing, but under `--sandbox` an empty
 * `--muster-url` is the sandbox's muster double, so its agents reach the muster that answers.
 */
export function line2Settings({ line2 }: AppConfig, sandboxMusterUrl?: string) {
  const { harnessName, skillsGitAuthSecretName } = line2;
  const musterUrl = line2.musterUrl || sandboxMusterUrl || undefined;
  return { harnessName, musterUrl, skillsGitAuthSecretName: skillsGitAuthSecretName || undefined };
}

/** What composition writes, from the configuration and the discovered Flux versions. */
export function composeConfig(config: AppConfig, apiVersions: ApiVersions): ComposeConfig {
  return {
    chartOciUrl: config.chart.ociUrl, chartSemver: config.chart.semver,
    helmReleaseInterval: config.compose.helmReleaseInterval.text,
    ociRepositoryInterval: config.compose.ociRepositoryInterval.text,
    helmReleaseServiceAccount: config.compose.helmReleaseServiceAccount || undefined,
    chartSecretRef: config.chart.secretRef || undefined,
    chartProvider: config.chart.provider,
    apiVersions: { helmRelease: apiVersions.helmRelease, ociRepository: apiVersions.ociRepository },
  };
}

/**
 * How the claude-Harness guards ask muster: at `--muster-url` (else the sandbox's double, else the platform's
 * in-cluster URL), as the caller under OAuth, else with `--muster-token-file`'s token (the sandbox's double's token
 * under `--sandbox`); with neither, a claude-Harness write is refused, since the check cannot be made.
 */
export function claudeGuardSettings(
  config: AppConfig, sandboxMuster?: { url: string; token: string },
): ClaudeGuardSettings {
  const file = config.harnessGuards.musterTokenFile;
  const serviceToken = file !== '' ? () => readMusterToken(file)
    : sandboxMuster ? () => Promise.resolve({ token: sandboxMuster.token }) : undefined;
  return {
    harnessEgress: config.harnessGuards.egress,
    musterUrl: config.line2.musterUrl || sandboxMuster?.url || DEFAULT_MUSTER_URL,
    oauth: config.oauth.enabled,
    ...(serviceToken ? { serviceToken } : {}),
  };
}

/** What the service settings take besides the configuration: facts start-up learned. */
export interface StartFacts {
  version: string;
  apiVersions: ApiVersions;
  /** The fleet settings (with `--sandbox`, the sandbox's fleet fills what the flags leave empty). */
  fleet: FleetConfig;
  sandboxMuster?: { url: string; token: string };
}

/** The AgentService's settings: the configuration's slice it needs, with what start-up learned. */
export function serviceSettings(config: AppConfig, facts: StartFacts): ServiceSettings {
  const { apiVersions, sandboxMuster } = facts;
  return {
    version: facts.version,
    namespaces: new ManagedNamespaces(config.namespaces.default, config.namespaces.managed),
    compose: composeConfig(config, apiVersions),
    apiVersions,
    revisionHistoryLimit: config.revisionHistoryLimit,
    targetMusterUrl: facts.fleet.targetMusterUrl || undefined,
    line2: line2Settings(config, sandboxMuster?.url),
    claudeGuard: claudeGuardSettings(config, sandboxMuster),
    toolsetPresets: { configured: config.toolsetPresets },
    gitops: {
      repository: config.gitops.repository || undefined, repositories: config.gitops.repositories,
      branch: config.gitops.branch, path: config.gitops.path,
      reviewCallers: config.oauth.enabled && !config.oauth.downstream,
    },
  };
}

/**
 * The browser origins accepted besides loopback ones: the operator's list, plus, with
 * OAuth, the public base URL's origin, so a page served from this service's own public
 * address is never refused. parseConfig has normalised the list and checked the base URL.
 */
export function allowedBrowserOrigins(config: AppConfig): string[] {
  const origins = [...config.allowedOrigins];
  if (config.oauth.enabled) origins.push(new URL(config.oauth.baseUrl).origin);
  return [...new Set(origins)];
}

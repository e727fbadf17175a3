/**
 * API version discovery at startup: which version of kagent.dev and of the two Flux
 * groups the cluster serves. `auto` discovers; a bare version (`v2`) gets the group
 * prefixed; a full `group/version` is taken as given. When discovery fails the built-in
 * default is used and a warning says so.
 */
import { ApisApi, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { DEFAULT_API_VERSIONS, type ApiVersions } from '../service/resources.js';

export interface ApiVersionFlags {
  kagent: string;
  /** `--kagent-v2-api-version`: api.kagent.dev (chart 2.x); `auto` discovers, `none` turns the 2.x reads off. */
  kagentV2?: string;
  helmRelease: string;
  ociRepository: string;
}

/** The served version of (group, resource): the preferred one if it serves it, else the first that does. */
export type Discover = (group: string, resource: string) => Promise<string>;

/** A Discover over the real API: one /apis call, then the resources of candidate versions. */
export function apiDiscovery(kc: KubeConfig): Discover {
  const apis = kc.makeApiClient(ApisApi);
  const custom = kc.makeApiClient(CustomObjectsApi);
  let groups: ReturnType<ApisApi['getAPIVersions']> | undefined;
  return async (group, resource) => {
    groups ??= apis.getAPIVersions();
    const found = (await groups).groups.find((g) => g.name === group);
    if (!found) throw new Error(`the API server does not serve ${group}`);
    const preferred = found.preferredVersion?.version;
    const candidates = [preferred, ...found.versions.map((v) => v.version)].filter(
      (v, i, all): v is string => Boolean(v) && all.indexOf(v) === i,
    );
    for (const version of candidates) {
      const list = await custom.getAPIResources({ group, version });
      if (list.resources.some((r) => r.name === resource)) return version;
    }
    throw new Error(`no served version of ${group} has ${resource}`);
  };
}

function pinned(flag: string, group: string): string | undefined {
  const value = flag.trim();
  if (!value || value === 'auto') return undefined;
  return value.includes('/') ? value : `${group}/${value}`;
}

async function resolveOne(
  flag: string, group: string, resource: string, fallback: string,
  discover: Discover, log: Logger, warning: string,
): Promise<string> {
  const fixed = pinned(flag, group);
  if (fixed) return fixed;
  try {
    return `${group}/${await discover(group, resource)}`;
  } catch (err) {
    log.warn({ group, resource, fallback, err: err instanceof Error ? err.message : String(err) }, warning);
    return fallback;
  }
}

/** Resolve the four API versions from the flags, discovering where asked. */
export async function resolveApiVersions(
  flags: ApiVersionFlags, discover: Discover, log: Logger,
): Promise<ApiVersions> {
  const kagentWarning = 'kagent API discovery failed, using default';
  const fluxWarning = 'Flux API discovery failed, using default';
  const [agent, helmRelease, ociRepository] = await Promise.all([
    resolveOne(flags.kagent, 'kagent.dev', 'agents', DEFAULT_API_VERSIONS.agent, discover, log, kagentWarning),
    resolveOne(flags.helmRelease, 'helm.toolkit.fluxcd.io', 'helmreleases', DEFAULT_API_VERSIONS.helmRelease, discover,
      log, fluxWarning),
    resolveOne(flags.ociRepository, 'source.toolkit.fluxcd.io', 'ocirepositories', DEFAULT_API_VERSIONS.ociRepository,
      discover, log, fluxWarning),
  ]);
  // ModelConfigs live in the kagent group at the Agent's version.
  const agentV2 = await resolveLine2(flags.kagentV2 ?? 'auto', discover, log);
  return { agent, modelConfig: agent, helmRelease, ociRepository, ...(agentV2 ? { agentV2 } : {}) };
}

/**
 * The api.kagent.dev version of chart 2.x. Unlike kagent.dev's, a cluster that does not serve the group is no
 * error: it has no 2.x agents yet (kagent not upgraded), so the 2.x reads are left out instead of failing with
 * 404s; `none` says so outright.
 */
async function resolveLine2(flag: string, discover: Discover, log: Logger): Promise<string | undefined> {
  if (flag.trim() === 'none') return undefined;
  const fixed = pinned(flag, 'api.kagent.dev');
  if (fixed) return fixed;
  try {
    return `api.kagent.dev/${await discover('api.kagent.dev', 'agents')}`;
  } catch (err) {
    log.info({ group: 'api.kagent.dev', err: err instanceof Error ? err.message : String(err) },
      'the cluster does not serve api.kagent.dev: agents of chart 2.x cannot be read or written until kagent is ' +
      'upgraded');
    return undefined;
  }
}

/**
 * The AgentService `serve` runs, built from the clusters' reads and the outbound clients: the chart
 * schema source (the registry's newest schema in the range, the embedded one until and whenever the
 * registry cannot be read), the skill catalog and commit mode's GitHub host when configured, the A2A
 * client of the session tools, muster's toolset resolver and the skill pinner. Every outbound client
 * goes through `--proxy` and the fetch hooks, so it is counted and traced like the Kubernetes calls.
 */
import { parseOciReference } from './chart/oci-reference.js';
import { credentialSource, type CredentialSource } from './chart/registry-credentials.js';
import { LineChartSchemaSources } from './chart/line-sources.js';
import type { AppConfig, BuildInfo } from './config/index.js';
import type { Logger } from './log/logger.js';
import type { Metrics } from './metrics/app-metrics.js';
import { instrumentFetch } from './net/instrumented-fetch.js';
import { outboundFetch } from './net/proxy.js';
import type { ObservabilityHooks } from './observability/hooks.js';
import { instrumentService } from './service/instrumented-service.js';
import { AgentService } from './service/agent-service.js';
import type { ChartSchemaSource } from './service/ports.js';
import type { ApiVersions } from './service/resources.js';
import type { SessionsDeps } from './service/sessions/session-port.js';
import { GitHubSkillCatalog } from './skills/github-skill-catalog.js';
import { skillResolverFor } from './skills/skill-resolver.js';
import { openGitOpsHost, type GitHubPacing } from './github/open-commit-host.js';
import { MusterToolsetResolver } from './muster/muster-toolset-resolver.js';
import { KagentA2A } from './a2a/kagent-a2a.js';
import type { ClusterReads, OpenedCluster } from './serve-cluster.js';
import type { Cleanup } from './serve-shutdown.js';
import { serviceSettings } from './serve-settings.js';

/** What building the service needs from the steps before it. */
export interface ServiceInput {
  info: BuildInfo;
  opened: OpenedCluster;
  reads: ClusterReads;
  apiVersions: ApiVersions;
  hooks: ObservabilityHooks;
  metrics?: Metrics;
  /** Ends every wait when the server shuts down. */
  shutdown: AbortSignal;
  githubPacing?: GitHubPacing;
}

/** The instrumented AgentService, its clients opened in the order start-up logs them. */
export async function buildService(
  config: AppConfig, log: Logger, input: ServiceInput, cleanups: Cleanup[],
): Promise<AgentService> {
  const { info, opened, reads, hooks } = input;
  const fetchFor = (peer: string) => instrumentFetch(outboundFetch(config.proxy), peer, hooks.fetch);
  const githubFetch = fetchFor('github');
  const skills = config.skills.repositories.length > 0
    ? new GitHubSkillCatalog({
        repositories: config.skills.repositories, apiUrl: config.skills.githubApi,
        token: config.skills.githubToken || undefined, cacheTtlMs: config.skills.cacheTtl.ms, fetch: githubFetch, log,
      })
    : undefined;
  const gitops = await openGitOpsHost(config.gitops, githubFetch, input.githubPacing);
  const chart = openChartSource(config, log, cleanups, hooks, input.metrics);
  const service = new AgentService(
    {
      kube: reads.kube, chart, skills, gitops, readCache: reads.readCache,
      sessions: openSessions(config, opened.sandboxA2aUrl, hooks, log),
      toolsets: new MusterToolsetResolver({ fetch: fetchFor('muster'), version: info.version }),
      skillResolver: skillResolverFor(config, fetchFor),
      shutdown: input.shutdown, workloads: reads.workloads, log,
    },
    serviceSettings(config, { version: info.version, apiVersions: input.apiVersions, fleet: opened.fleet,
      sandboxMuster: opened.sandboxMuster }),
  );
  return instrumentService(service, hooks.operation);
}

/**
 * The session tools' A2A client, off (undefined) when `--kagent-a2a-url` is empty. With
 * `--sandbox` and the URL left at its default, the sandbox's kagent endpoint is used.
 */
function openSessions(
  config: AppConfig, sandboxA2aUrl: string | undefined, hooks: ObservabilityHooks, log: Logger,
): SessionsDeps | undefined {
  const baseUrl = !config.sessions.a2aUrlSet && sandboxA2aUrl ? sandboxA2aUrl : config.sessions.a2aUrl;
  if (!baseUrl) return undefined;
  log.info({ url: baseUrl }, 'session tools talk to agents over A2A');
  return {
    a2a: new KagentA2A({ baseUrl, fetch: instrumentFetch(outboundFetch(config.proxy), 'kagent', hooks.fetch) }),
    oauth: config.oauth.enabled,
  };
}

/**
 * The chart schema source: the registry's newest schema in the configured range, the
 * embedded one until (or whenever) the registry cannot be read. The first read starts
 * now, in the background, so the first request does not wait for the registry.
 */
function openChartSource(
  config: AppConfig, log: Logger, cleanups: Cleanup[], hooks: ObservabilityHooks, metrics?: Metrics,
): ChartSchemaSource {
  const source = new LineChartSchemaSources({
    ociUrl: config.chart.ociUrl, semver: config.chart.semver, refreshMs: config.chart.refresh.ms,
    credentials: chartCredentials(config),
    fetch: instrumentFetch(outboundFetch(config.proxy), 'registry', hooks.fetch),
    onResolve: metrics && (({ ok, source: used }) => {
      if (!ok) metrics.service.chartRegistryError();
      metrics.service.chartSchemaSource(used);
    }),
    log,
  });
  cleanups.push(() => source.close());
  void source.schema();
  return source;
}

/**
 * The chart registry credentials. A Docker config that cannot be read, or has no entry for
 * the chart's registry, stops startup naming the flag: validating against the embedded schema
 * for want of a typo'd path would be the silent fallback the flag exists to prevent.
 */
function chartCredentials(config: AppConfig): CredentialSource | undefined {
  try {
    return credentialSource(config.chart.auth, parseOciReference(config.chart.ociUrl).registry);
  } catch (err) {
    throw new Error(`--agent-chart-docker-config ${config.chart.auth.dockerConfig}: ` +
      `${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

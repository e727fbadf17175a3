/**
 * `agent-manager serve`, the composition root: turns the typed configuration into running parts in the
 * order docs/architecture.md "Start-up and shutdown" gives (cluster or sandbox, identity, API discovery,
 * read cache, chart schema, skills, AgentService, app and metrics listeners), down in reverse; a bad
 * OAuth flag stops start-up before anything slow. Without `--enable-oauth` every request acts as the
 * ServiceAccount; with `--downstream-oauth` each request's client presents its own token, never falling
 * back. Shutdown serves through `--shutdown-delay`, then drains (docs/operations.md "Listeners").
 */
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseOciReference } from './chart/oci-reference.js';
import { credentialSource, type CredentialSource } from './chart/registry-credentials.js';
import { LineChartSchemaSources } from './chart/line-sources.js';
import { buildInfo, redactedSummary, type AppConfig, type FleetConfig } from './config/index.js';
import { createTokenVerifier } from './identity/token-verifier.js';
import { verifierConfigFrom } from './identity/verifier-config.js';
import { apiDiscovery, resolveApiVersions, type Discover } from './kube/discovery.js';
import { clusterCacheOpener, clusterReadCaches } from './kube/cache/fleet-caches.js';
import { openReadCache } from './kube/cache/open.js';
import { loadBaseKubeConfig } from './kube/kubeconfig.js';
import { instrumentProvider } from './kube/instrumented.js';
import { CallerProvider, ServiceAccountProvider } from './kube/providers.js';
import { openWorkloadClusters } from './kube/fleet/workload-clusters.js';
import type { Logger } from './log/logger.js';
import { Metrics } from './metrics/app-metrics.js';
import { registerClusterCacheMetrics } from './metrics/fleet-cache-metrics.js';
import { registerReadCacheMetrics } from './metrics/read-cache-metrics.js';
import { metricsRequestListener } from './metrics/metrics-server.js';
import { isLoopbackAddress } from './net/loopback.js';
import { asListenError } from './transport/http/listen-error.js';
import { instrumentFetch } from './net/instrumented-fetch.js';
import { outboundFetch } from './net/proxy.js';
import { collectHooks, type ObservabilityHooks } from './observability/hooks.js';
import { routeOf } from './transport/http/http-metrics.js';
import { instrumentService } from './service/instrumented-service.js';
import { AgentService } from './service/agent-service.js';
import { ManagedNamespaces } from './service/namespaces.js';
import type { ChartSchemaSource, KubeProvider } from './service/ports.js';
import { resourceTypes } from './service/resources.js';
import { GitHubSkillCatalog } from './skills/github-skill-catalog.js';
import { skillResolverFor } from './skills/skill-resolver.js';
import { openGitOpsHost, type GitHubPacing } from './github/open-commit-host.js';
import { createApp, warmUp, type AuthGuard } from './app.js';
import type { Step } from './transport/http/exchange.js';
import { resourceServerGuards } from './transport/http/auth.js';
import { DEFAULT_SCOPES, oauthMetadataRouter } from './transport/http/oauth-metadata.js';
import { Lifecycle } from './transport/http/lifecycle.js';
import { hostPort, startHttpServer, type RunningServer } from './transport/http/http-server.js';
import { loadSandbox, sandboxFleetConfig, serveSandboxOptions } from './sandbox-cluster.js';
import { claudeGuardSettings, composeConfig, line2Settings } from './serve-settings.js';
import { MusterToolsetResolver } from './muster/muster-toolset-resolver.js';
import { KagentA2A } from './a2a/kagent-a2a.js';
import type { SessionsDeps } from './service/sessions/session-port.js';
import { nextSignal, shutdownDelay } from './serve-signals.js';

/** How long startup discovery may wait for the API server before using the defaults. */
const DISCOVERY_TIMEOUT_MS = 10_000;

/** Options for tests: a stop signal other than the process's, and a hook once listening. */
export interface ServeOptions {
  /** Resolves when the server should stop; default: the first SIGTERM or SIGINT. */
  readonly stop?: Promise<unknown>;
  /** Called with the main listener's bound address once it listens. */
  readonly onListening?: (address: AddressInfo, metrics?: AddressInfo) => void;
  /** Commit mode's GitHub pacing (write spacing, retry backoff); default GitHub's guidance. */
  readonly githubPacing?: GitHubPacing;
}

/** Serve until SIGTERM/SIGINT (or `options.stop`), then stop as the header says. */
export async function runServe(config: AppConfig, log: Logger, options: ServeOptions = {}): Promise<void> {
  const info = buildInfo(process.env);
  log.info({ version: info.version, commit: info.commit, ...redactedSummary(config) }, 'agent-manager starting');
  const cleanups: Cleanup[] = [];
  const listeners: RunningServer[] = [];
  const lifecycle = new Lifecycle();
  try {
    const metrics = config.metrics.enabled ? new Metrics({ build: info }) : undefined;
    // The OpenTelemetry SDK is loaded only when traces are on: it is not small, and most
    // installations run without it.
    const tracing = config.otel.enabled ? (await import('./tracing/otel-tracing.js')).startTracing(config.otel, info)
      : undefined;
    // Pushed first, so it runs last: the spans of the whole shutdown are exported too.
    if (tracing) cleanups.push(() => tracing.shutdown());
    const hooks = collectHooks(tracing, metrics?.service);
    const { cluster, sandboxA2aUrl, fleet, sandboxMuster } = await openCluster(config, log, cleanups);
    const identity = openIdentity(config, cluster, log, cleanups);
    const { auth, publicRoutes } = identity;
    const instrumented = instrumentProvider(identity.kube, hooks.kube);
    const apiVersions = await resolveApiVersions(
      {
        kagent: config.kube.kagentApiVersion,
        kagentV2: config.kube.kagentV2ApiVersion,
        helmRelease: config.kube.helmReleaseApiVersion,
        ociRepository: config.kube.ociRepositoryApiVersion,
      },
      withTimeout(apiDiscovery(cluster), DISCOVERY_TIMEOUT_MS),
      log,
    );
    // The versions in use (the start-up line carries the flags, which say `auto` when discovering).
    log.info({ kagentAPI: apiVersions.agent, helmReleaseAPI: apiVersions.helmRelease,
      ociRepositoryAPI: apiVersions.ociRepository }, 'Kubernetes API versions');
    const readCache = config.kube.readCache
      ? openReadCache(instrumented, {
          cluster, namespaces: config.namespaces.managed, types: resourceTypes(apiVersions), log, hooks: hooks.kube,
          review:
            identity.kube instanceof CallerProvider
              ? (ctx, attributes) => (identity.kube as CallerProvider).mayRead(ctx, attributes)
              : undefined,
        })
      : undefined;
    if (readCache) cleanups.push(() => readCache.close());
    if (metrics && readCache) registerReadCacheMetrics(metrics, readCache.cache);
    const kube = readCache?.kube ?? instrumented;
    const clusterCaches = clusterReadCaches({
      readCache: config.kube.readCache, max: config.kube.readCacheClusters, identity: identity.kube.identity, log,
    });
    if (clusterCaches) cleanups.push(() => clusterCaches.close());
    if (metrics && clusterCaches) registerClusterCacheMetrics(metrics, clusterCaches);
    const workloads = openWorkloadClusters(cluster, {
      identity: identity.kube.identity, organizations: fleet.organizations, hooks: hooks.kube, log,
      readCache: clusterCaches && {
        caches: clusterCaches,
        open: clusterCacheOpener({
          namespaces: config.namespaces.managed, types: resourceTypes(apiVersions), log, hooks: hooks.kube,
        }),
      },
    });
    cleanups.push(() => workloads.close());
    const githubFetch = instrumentFetch(outboundFetch(config.proxy), 'github', hooks.fetch);
    const skills = config.skills.repositories.length > 0
      ? new GitHubSkillCatalog({
          repositories: config.skills.repositories, apiUrl: config.skills.githubApi,
          token: config.skills.githubToken || undefined, cacheTtlMs: config.skills.cacheTtl.ms, fetch: githubFetch, log,
        })
      : undefined;
    const gitops = await openGitOpsHost(config.gitops, githubFetch, options.githubPacing);
    const service = instrumentService(new AgentService(
      {
        kube, chart: openChartSource(config, log, cleanups, hooks, metrics), skills, gitops,
        readCache: readCache?.cache,
        sessions: openSessions(config, sandboxA2aUrl, hooks, log),
        toolsets: new MusterToolsetResolver({
          fetch: instrumentFetch(outboundFetch(config.proxy), 'muster', hooks.fetch), version: info.version,
        }),
        skillResolver: skillResolverFor(
          config, (peer) => instrumentFetch(outboundFetch(config.proxy), peer, hooks.fetch),
        ),
        shutdown: lifecycle.draining, workloads, log,
      },
      {
        version: info.version,
        namespaces: new ManagedNamespaces(config.namespaces.default, config.namespaces.managed),
        compose: composeConfig(config, apiVersions),
        apiVersions,
        revisionHistoryLimit: config.revisionHistoryLimit,
        targetMusterUrl: fleet.targetMusterUrl || undefined,
        line2: line2Settings(config, sandboxMuster?.url),
        claudeGuard: claudeGuardSettings(config, sandboxMuster),
        toolsetPresets: { configured: config.toolsetPresets },
        gitops: {
          repository: config.gitops.repository || undefined, repositories: config.gitops.repositories,
          branch: config.gitops.branch, path: config.gitops.path,
          reviewCallers: config.oauth.enabled && !config.oauth.downstream,
        },
      },
    ), hooks.operation);
    const app = createApp({
      service, log, version: info.version, mcpPath: config.mcp.path, mcpEnabled: config.mcp.enabled, metrics, auth,
      publicRoutes, allowedOrigins: allowedBrowserOrigins(config), lifecycle,
    });

    // Every listener is bound before anything says the service is ready: a port in use
    // stops startup (exit 2, naming the flag) instead of failing after 'listening'.
    const main = await startHttpServer(tracing ? tracing.httpListener(app, routeOf as never) : app, config.listen,
      '--listen');
    listeners.push(main);
    let metricsServer: RunningServer | undefined;
    if (metrics) {
      metricsServer = await startHttpServer(metricsRequestListener(metrics, log), config.metrics.listen,
        '--metrics-listen');
      listeners.push(metricsServer);
    }
    log.info({
      address: hostPort(main.address), url: main.url,
      metricsAddress: metricsServer ? hostPort(metricsServer.address) : undefined,
      // Milliseconds since the process started (performance.timeOrigin), module loading included.
      startupMs: Math.round(performance.now()),
    }, 'listening');
    if (!config.oauth.enabled && !isLoopbackAddress(main.address.address)) {
      // Without OAuth no identity is checked: whoever reaches the port acts as this server.
      log.warn({ address: hostPort(main.address) }, 'OAuth is off (--enable-oauth) and the server listens beyond '
        + 'loopback: every caller that reaches it can create, change and delete agents as its Kubernetes identity; '
        + 'turn on OAuth, or let only a trusted proxy reach it (a NetworkPolicy)');
    }
    // Lifecycle lines are waited for (by people, probes, tests): out at once, not batched.
    log.flush();
    options.onListening?.(main.address, metricsServer?.address);
    // What the app loads on first use (the MCP SDK) is loaded now, after listening, so the
    // probes answer sooner and the first MCP request does not wait for it.
    warmUp(app).catch((err: unknown) => {
      log.warn({ err: err instanceof Error ? err.message : String(err) },
        'loading the MCP handler failed; the next MCP request retries');
    });

    const reason = await (options.stop ?? nextSignal());
    lifecycle.stop();
    for (const listener of listeners) listener.stopKeepAlive();
    log.info({ ...(typeof reason === 'string' ? { signal: reason } : {}), delay: config.shutdown.delay.text },
      'shutting down');
    log.flush();
    await shutdownDelay(config.shutdown.delay.ms, options.stop === undefined);
  } finally {
    // The listeners first, together, so in-flight requests share the one drain period;
    // then the clients and the sandbox, in reverse order of creation.
    if (listeners.length > 0) log.info({ timeout: config.shutdown.timeout.text }, 'draining');
    log.flush();
    // Waits and status streams end now, with their watches, instead of holding the drain.
    lifecycle.drain();
    await Promise.all(listeners.map((l) => l.close(config.shutdown.timeout.ms)));
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (err) {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'shutdown step failed');
      }
    }
  }
  log.info('server stopped');
}

/** One step of the shutdown. */
type Cleanup = () => unknown;

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

/** The base cluster: the sandbox's when `--sandbox` is on, else the kubeconfig / in-cluster one; the sandbox's A2A
 * endpoint and muster double (`sandboxMuster`: the URL, and the token that stands in for --muster-token-file); and
 * the fleet settings (with the sandbox, its fleet fills what the flags leave empty). */
async function openCluster(
  config: AppConfig, log: Logger, cleanups: Cleanup[],
): Promise<{
  cluster: KubeConfig; sandboxA2aUrl?: string; fleet: FleetConfig; sandboxMuster?: { url: string; token: string };
}> {
  if (!config.sandbox.enabled) {
    return {
      cluster: loadBaseKubeConfig({
        kubeconfig: config.kube.kubeconfig, context: config.kube.context, inCluster: config.kube.inCluster,
      }),
      fleet: config.fleet,
    };
  }
  // Only here, and only when asked for, is the sandbox loaded.
  const { startSandbox, startMuster } = await loadSandbox();
  const sandboxLog = log.child({ component: 'sandbox' });
  const sandbox = await startSandbox({ ...serveSandboxOptions(config.sandbox), log: sandboxLog })
    .catch((err: unknown) => {
      throw asListenError(err, '--sandbox-listen', config.sandbox.listen);
    });
  cleanups.push(() => sandbox.close());
  // kubectl gets the administrator; agent-manager itself acts as its ServiceAccount, as in a cluster.
  if (config.sandbox.kubeconfigOut) await sandbox.writeKubeconfig(config.sandbox.kubeconfigOut);
  const workloadClusters = Object.fromEntries([...sandbox.workloads ?? []].map(([name, w]) => [name, w.url]));
  const muster = await startMuster();
  cleanups.push(() => muster.stop());
  const fleet = sandboxFleetConfig(config.fleet, muster.url);
  log.info({ url: sandbox.url, a2aUrl: sandbox.a2aUrl, musterUrl: muster.url,
    kubeconfig: config.sandbox.kubeconfigOut || undefined, workloadClusters, targetMusterUrl: fleet.targetMusterUrl,
    reconcileDelayMs: config.sandbox.reconcileDelayMs }, 'sandbox API server started');
  const kubeconfigYaml = sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' });
  return {
    cluster: loadBaseKubeConfig({ kubeconfigYaml }), sandboxA2aUrl: sandbox.a2aUrl, fleet,
    sandboxMuster: { url: muster.url, token: muster.token },
  };
}

/** Who requests act as, and how they prove it. */
interface Identity {
  kube: KubeProvider | CallerProvider;
  /** The bearer guards (OAuth only). */
  auth?: AuthGuard;
  /** The RFC 9728 metadata documents (OAuth only). */
  publicRoutes?: Step;
}

/**
 * The identity wiring. Trust model: with OAuth, a request reaches the service only with
 * an id_token of the configured issuer for a trusted audience; with downstream OAuth,
 * every Kubernetes call of that request presents exactly that token, and a request
 * without one is refused (401), never served as the ServiceAccount.
 */
function openIdentity(config: AppConfig, cluster: KubeConfig, log: Logger, cleanups: Cleanup[]): Identity {
  const { oauth } = config;
  const downstream = oauth.enabled && oauth.downstream;
  const kube = downstream ? new CallerProvider(cluster, { log }) : new ServiceAccountProvider(cluster);
  cleanups.push(() => kube.close());
  if (!oauth.enabled) return { kube };

  // An unreadable CA file or an unusable issuer URL stops startup here, with its flag named.
  const verifier = createTokenVerifier(verifierConfigFrom(oauth), { proxy: config.proxy });
  const mcpPath = config.mcp.path;
  log.info({
    provider: oauth.provider.name, issuer: verifier.issuer, trustedAudiences: verifier.trustedAudiences,
    baseUrl: oauth.baseUrl, identity: kube.identity,
  }, 'OAuth resource server enabled');
  if (downstream && config.sandbox.enabled) {
    // The in-process sandbox trusts only its own tokens; say so now rather than with a 401 per request.
    log.warn({ issuer: verifier.issuer },
      'the in-process sandbox does not trust the identity provider, so it will refuse callers\' tokens (401); ' +
      'run `agent-manager sandbox --oidc-issuer-url=<issuer> --oidc-client-id=<audience>` and point --kubeconfig at ' +
      'it instead');
  }
  // Warm the discovery document and key set now, so the first caller does not wait; an
  // identity provider that is down is not fatal: each request retries and says why.
  verifier.discover().catch((err: unknown) => {
    log.warn({ err: err instanceof Error ? err.message : String(err), issuer: verifier.issuer },
      'identity provider not reachable yet; bearer tokens cannot be verified until it is');
  });
  return {
    kube,
    auth: resourceServerGuards({ verifier, log, baseUrl: oauth.baseUrl, mcpPath }),
    publicRoutes: oauthMetadataRouter({
      baseUrl: oauth.baseUrl, issuer: verifier.issuer, mcpPath, scopesSupported: DEFAULT_SCOPES[oauth.provider.name],
    }),
  };
}

/**
 * The browser origins accepted besides loopback ones: the operator's list, plus, with
 * OAuth, the public base URL's origin, so a page served from this service's own public
 * address is never refused. parseConfig has normalised the list and checked the base URL.
 */
function allowedBrowserOrigins(config: AppConfig): string[] {
  const origins = [...config.allowedOrigins];
  if (config.oauth.enabled) origins.push(new URL(config.oauth.baseUrl).origin);
  return [...new Set(origins)];
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

/** Discovery that gives up after `ms` (an unreachable API server must not hold up startup). */
function withTimeout(discover: Discover, ms: number): Discover {
  return (group, resource) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the API server within ${ms / 1000}s`)), ms);
    });
    return Promise.race([discover(group, resource), timeout]).finally(() => clearTimeout(timer));
  };
}

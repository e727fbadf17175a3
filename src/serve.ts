/**
 * `agent-manager serve`, the composition root: `runServe` is the list of start-up steps in the order
 * docs/architecture.md "Start-up and shutdown" gives (observability, cluster or sandbox, identity, API
 * discovery, reads, service, app and metrics listeners), each a named function here or in `serve-*.ts`;
 * what they open comes down in reverse (serve-shutdown.ts). A bad OAuth flag stops start-up before
 * anything slow. Every listener is bound before anything says the service is ready: a port in use stops
 * start-up (exit 2, naming the flag) instead of failing after 'listening'.
 */
import type { AddressInfo } from 'node:net';
import { buildInfo, redactedSummary, type AppConfig, type BuildInfo } from './config/index.js';
import type { Logger } from './log/logger.js';
import { Metrics } from './metrics/app-metrics.js';
import { metricsRequestListener } from './metrics/metrics-server.js';
import { isLoopbackAddress } from './net/loopback.js';
import { collectHooks, type ObservabilityHooks } from './observability/hooks.js';
import type { Tracing } from './tracing/otel-tracing.js';
import { routeOf } from './transport/http/http-metrics.js';
import { hostPort, startHttpServer, type RunningServer } from './transport/http/http-server.js';
import type { GitHubPacing } from './github/open-commit-host.js';
import { createApp, warmUp, type App } from './app.js';
import { discoverApiVersions, openCluster, openClusterReads } from './serve-cluster.js';
import { openIdentity } from './serve-identity.js';
import { buildService } from './serve-service.js';
import { allowedBrowserOrigins } from './serve-settings.js';
import { awaitStop, Opened, takeDown, type Cleanup } from './serve-shutdown.js';

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
  const info = announceStart(config, log);
  const opened = new Opened();
  try {
    const observed = await startObservability(config, info, opened.cleanups);
    const cluster = await openCluster(config, log, opened.cleanups);
    const identity = openIdentity(config, cluster.cluster, log, opened.cleanups);
    const apiVersions = await discoverApiVersions(config, cluster.cluster, log);
    const reads = openClusterReads(config, log, {
      cluster: cluster.cluster, fleet: cluster.fleet, provider: identity.kube, apiVersions, ...observed,
    }, opened.cleanups);
    const service = await buildService(config, log, {
      info, opened: cluster, reads, apiVersions, ...observed, shutdown: opened.lifecycle.draining,
      githubPacing: options.githubPacing,
    }, opened.cleanups);
    const app = createApp({
      service, log, version: info.version, mcpPath: config.mcp.path, mcpEnabled: config.mcp.enabled,
      metrics: observed.metrics, auth: identity.auth, publicRoutes: identity.publicRoutes,
      allowedOrigins: allowedBrowserOrigins(config), lifecycle: opened.lifecycle,
    });
    const listening = await startListeners(config, log, { app, ...observed }, opened.listeners);
    announceReady(config, log, listening, options);
    warmUpInBackground(app, log);
    await awaitStop(config, log, opened, options.stop);
  } finally {
    await takeDown(config, log, opened);
  }
  log.info('server stopped');
}

/** The build and the configuration (secrets redacted), the first line of every start. */
function announceStart(config: AppConfig, log: Logger): BuildInfo {
  const info = buildInfo(process.env);
  log.info({ version: info.version, commit: info.commit, ...redactedSummary(config) }, 'agent-manager starting');
  return info;
}

/** Metrics and traces, and the hooks through which every Kubernetes call, fetch and operation feeds them. */
interface Observed {
  metrics?: Metrics;
  tracing?: Tracing;
  hooks: ObservabilityHooks;
}

/** Metrics when `--metrics` is on, traces when the OTEL_* environment asks. */
async function startObservability(config: AppConfig, info: BuildInfo, cleanups: Cleanup[]): Promise<Observed> {
  const metrics = config.metrics.enabled ? new Metrics({ build: info }) : undefined;
  // The OpenTelemetry SDK is loaded only when traces are on: it is not small, and most
  // installations run without it.
  const tracing = config.otel.enabled ? (await import('./tracing/otel-tracing.js')).startTracing(config.otel, info)
    : undefined;
  // Pushed first, so it runs last: the spans of the whole shutdown are exported too.
  if (tracing) cleanups.push(() => tracing.shutdown());
  return { metrics, tracing, hooks: collectHooks(tracing, metrics?.service) };
}

/** The bound listeners: the app's and, with metrics, the metrics one. */
interface Listening {
  main: RunningServer;
  metricsServer?: RunningServer;
}

/** Binds `--listen` (traced when tracing is on), then `--metrics-listen`; each joins `listeners` once bound. */
async function startListeners(
  config: AppConfig, log: Logger, parts: { app: App; tracing?: Tracing; metrics?: Metrics }, listeners: RunningServer[],
): Promise<Listening> {
  const { app, tracing, metrics } = parts;
  const main = await startHttpServer(tracing ? tracing.httpListener(app, routeOf) : app, config.listen, '--listen');
  listeners.push(main);
  if (!metrics) return { main };
  const metricsServer = await startHttpServer(metricsRequestListener(metrics, log),
    config.metrics.listen, '--metrics-listen');
  listeners.push(metricsServer);
  return { main, metricsServer };
}

/** The 'listening' line (flushed: people, probes and tests wait for it), then `onListening`. */
function announceReady(
  config: AppConfig, log: Logger, { main, metricsServer }: Listening, options: ServeOptions,
): void {
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
}

/**
 * What the app loads on first use (the MCP SDK) is loaded now, after listening, so the
 * probes answer sooner and the first MCP request does not wait for it.
 */
function warmUpInBackground(app: App, log: Logger): void {
  warmUp(app).catch((err: unknown) => {
    log.warn({ err: err instanceof Error ? err.message : String(err) },
      'loading the MCP handler failed; the next MCP request retries');
  });
}

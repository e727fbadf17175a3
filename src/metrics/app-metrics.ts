/**
 * The Prometheus metrics on a registry of their own (never prom-client's global, so two apps in one
 * process do not clash): Node process metrics, `http_server_request_duration_seconds{method, route, code}`
 * (the route pattern, never the raw URL, so names cannot blow up series),
 * `mcp_server_operation_duration_seconds{tool, outcome}` (after OpenTelemetry's
 * `mcp.server.operation.duration`) and the service's own (service-metrics.ts), on OTel's HTTP buckets.
 * `code` is the label name, as in the API server's metrics. docs/operations.md "Metrics" lists them all.
 */
import { Gauge, Histogram, Registry } from 'prom-client';
import { processMetricsRegistry } from './process-metrics.js';
import { ServiceMetrics } from './service-metrics.js';

/** The OTel semantic-convention buckets for request durations, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** How a tool call ended. */
export type ToolOutcome = 'ok' | 'tool_error' | 'error' | 'cancelled';

/** What a request being answered is, for the in-flight gauge: the long ones by name. */
export type RequestKind = 'wait' | 'status_stream' | 'mcp' | 'other';
const REQUEST_KINDS: readonly RequestKind[] = ['wait', 'status_stream', 'mcp', 'other'];

/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The metrics one service instance records. */
export class Metrics {
  /** This instance's own series; the process's (process-metrics.ts) are added when scraped. */
  readonly registry = new Registry();
  private readonly process: Registry | undefined;
  private readonly httpDuration: Histogram<'method' | 'route' | 'code' | 'status'>;
  private readonly toolDuration: Histogram<'tool' | 'outcome'>;
  private readonly inFlight: Gauge<'kind'>;
  /** The service's own metrics (service-metrics.ts): build, chart source, API calls, writes. */
  readonly service: ServiceMetrics;

  constructor(options: { processMetrics?: boolean; build?: { version: string; commit: string } } = {}) {
    this.process = (options.processMetrics ?? true) ? processMetricsRegistry() : undefined;
    this.service = new ServiceMetrics(this.registry, options.build ?? { version: 'unknown', commit: 'unknown' });
    this.httpDuration = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests, by method, route pattern and status code (code; status is its ' +
        'deprecated alias).',
      labelNames: ['method', 'route', 'code', 'status'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.toolDuration = new Histogram({
      name: 'mcp_server_operation_duration_seconds',
      help: 'Duration of MCP tools/call operations, by tool and outcome (ok, tool_error, error, cancelled).',
      labelNames: ['tool', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.inFlight = new Gauge({
      name: 'agent_manager_requests_in_flight',
      help: 'Requests of the main listener being answered, by kind: wait, status_stream (watch=true), mcp (SSE ' +
        'streams included), other.',
      labelNames: ['kind'],
      registers: [this.registry],
    });
    for (const kind of REQUEST_KINDS) this.inFlight.set({ kind }, 0);
  }

  /** Count a request in flight until the returned function is called (once). */
  requestStarted(kind: RequestKind): () => void {
    this.inFlight.inc({ kind });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight.dec({ kind });
    };
  }

  /** Record one finished HTTP request. */
  observeHttp(method: string, route: string, status: number, seconds: number): void {
    // The deprecated `status` label carries the same value, so it adds no series.
    this.httpDuration.observe({ method, route, code: String(status), status: String(status) }, seconds);
  }

  /** Record one finished tool call. */
  observeTool(tool: string, outcome: ToolOutcome, seconds: number): void {
    this.toolDuration.observe({ tool, outcome }, seconds);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const registry = this.process ? Registry.merge([this.process, this.registry]) : this.registry;
    return { contentType: this.registry.contentType, body: await registry.metrics() };
  }
}

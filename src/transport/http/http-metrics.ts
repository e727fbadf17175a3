/**
 * Records `http_server_request_duration_seconds` for every request of the main listener,
 * labelled with the route pattern that answered (`req.route`, set by whoever routed it, e.g.
 * `/api/v1/agents/:namespace/:name`), never the raw URL: agent names and namespaces must not
 * become label values. Counts the requests in flight by kind, so the long ones (waits,
 * status streams, MCP) show.
 */
import { UNMATCHED_ROUTE, type Metrics, type RequestKind } from '../../metrics/app-metrics.js';
import { whenClosed, type HttpRequest, type HttpResponse, type Step } from './exchange.js';

const WAIT_PATH = /^\/api\/v1\/agents\/[^/]+\/[^/]+\/wait$/;
const STATUS_PATH = /^\/api\/v1\/agents\/[^/]+\/[^/]+\/status$/;

/** The kind of a request from its path, before any route matched it. */
export function requestKind(req: Pick<HttpRequest, 'path' | 'query'>, mcpPath: string): RequestKind {
  const path = req.path;
  if (path === mcpPath) return 'mcp';
  if (WAIT_PATH.test(path)) return 'wait';
  if (STATUS_PATH.test(path) && req.query.watch === 'true') return 'status_stream';
  return 'other';
}

/**
 * The route pattern that answered `req` (HttpRequest's `route`), or `unmatched`. It takes any request object,
 * so the tracer can ask it of the node request it wraps, which is the same object once express has run.
 */
export function routeOf(req: object): string {
  // express sets its own route object on the request while a route of its runs; only our patterns are labels.
  const route = 'route' in req ? req.route : undefined;
  return typeof route === 'string' ? route : UNMATCHED_ROUTE;
}

/** The step; run it before every route. */
export function httpMetrics(metrics: Metrics, mcpPath = '/mcp'): Step {
  return (req: HttpRequest, res: HttpResponse): void => {
    const started = process.hrtime.bigint();
    const ended = metrics.requestStarted(requestKind(req, mcpPath));
    whenClosed(res, () => {
      ended();
      // Only an answer that was written has a duration; a connection the client closed first has none.
      if (!res.writableFinished) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeHttp(req.method ?? 'GET', routeOf(req), res.statusCode, seconds);
    });
  };
}

/**
 * Records `http_server_request_duration_seconds` for every request of the main listener,
 * labelled with the express route pattern that answered (`/api/v1/agents/:namespace/:name`),
 * never the raw URL: agent names and namespaces must not become label values. Counts the
 * requests in flight by kind, so the long ones (waits, status streams, MCP) show.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { UNMATCHED_ROUTE, type Metrics, type RequestKind } from '../../metrics/metrics.js';

/** The kind of a request from its path, before any route matched it. */
export function requestKind(req: Request, mcpPath: string): RequestKind {
  const path = req.path;
  if (path === mcpPath) return 'mcp';
  if (/^\/api\/v1\/agents\/[^/]+\/[^/]+\/wait$/.test(path)) return 'wait';
  if (/^\/api\/v1\/agents\/[^/]+\/[^/]+\/status$/.test(path) && req.query.watch === 'true') return 'status_stream';
  return 'other';
}

/** The route pattern that answered `req`, or `unmatched`. */
export function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return UNMATCHED_ROUTE;
  const joined = `${req.baseUrl}${route.path === '/' && req.baseUrl ? '' : route.path}`;
  return joined || '/';
}

/** The middleware; mount it before every router. */
export function httpMetrics(metrics: Metrics, mcpPath = '/mcp'): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const ended = metrics.requestStarted(requestKind(req, mcpPath));
    res.once('close', ended);
    res.once('finish', () => {
      ended();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeHttp(req.method, routeOf(req), res.statusCode, seconds);
    });
    next();
  };
}

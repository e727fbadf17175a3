/**
 * Records `http_server_request_duration_seconds` for every request of the main listener,
 * labelled with the express route pattern that answered (`/api/v1/agents/:namespace/:name`),
 * never the raw URL: agent names and namespaces must not become label values.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { UNMATCHED_ROUTE, type Metrics } from '../../metrics/metrics.js';

/** The route pattern that answered `req`, or `unmatched`. */
export function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return UNMATCHED_ROUTE;
  const joined = `${req.baseUrl}${route.path === '/' && req.baseUrl ? '' : route.path}`;
  return joined || '/';
}

/** The middleware; mount it before every router. */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeHttp(req.method, routeOf(req), res.statusCode, seconds);
    });
    next();
  };
}

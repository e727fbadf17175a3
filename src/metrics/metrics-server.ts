/**
 * The metrics listener's app (express 5): `GET /metrics` in the Prometheus text format and
 * nothing else. The composition root serves it on a listener of its own
 * (`--metrics-listen`, default `:9464`), so neither the OAuth guard nor anything in front
 * of the main listener ever covers it, as an OpenTelemetry Prometheus exporter on
 * port 9464. It is unauthenticated: bind it where only the scraper reaches it.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Metrics } from './app-metrics.js';

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** The app of the metrics port (itself a request listener). */
export function metricsRequestListener(metrics: Metrics, log: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // `/metrics` exactly: not `/METRICS`, not `/metrics/`.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.get('/metrics', (req: Request, res: Response) => {
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        log.error({ err: err instanceof Error ? err.message : String(err) }, 'metrics scrape failed');
        res.writeHead(500, TEXT).end('metrics scrape failed\n');
      },
    );
  });
  app.all('/metrics', (_req: Request, res: Response) => {
    res.writeHead(405, { ...TEXT, allow: 'GET, HEAD' }).end('method not allowed: use GET /metrics\n');
  });
  app.use((_req: Request, res: Response) => {
    res.writeHead(404, TEXT).end('not found: this listener serves GET /metrics only\n');
  });
  // Never express's own error page (it shows the stack outside production).
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    log.error({ err: err instanceof Error ? err.message : String(err) }, 'metrics request failed');
    if (res.headersSent) res.destroy();
    else res.writeHead(500, TEXT).end('metrics request failed\n');
  });
  return app;
}

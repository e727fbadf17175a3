/**
 * The metrics listener's handler: `GET /metrics` in the Prometheus text format and
 * nothing else. The composition root serves it on a listener of its own
 * (`--metrics-listen`, default `:9464`), so neither the OAuth guard nor anything in front
 * of the main listener ever covers it, as an OpenTelemetry Prometheus exporter on
 * port 9464. It is unauthenticated: bind it where only the scraper reaches it.
 */
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** The request listener of the metrics port. */
export function metricsRequestListener(metrics: Metrics, log: Logger): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, TEXT).end('not found: this listener serves GET /metrics only\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...TEXT, allow: 'GET, HEAD' }).end('method not allowed: use GET /metrics\n');
      return;
    }
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
  };
}

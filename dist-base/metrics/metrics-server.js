const TEXT = { 'content-type': 'text/plain; charset=utf-8' };
/** The request listener of the metrics port. */
export function metricsRequestListener(metrics, log) {
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
        metrics.scrape().then(({ contentType, body }) => {
            res.writeHead(200, { 'content-type': contentType });
            res.end(req.method === 'HEAD' ? undefined : body);
        }, (err) => {
            log.error({ err: err instanceof Error ? err.message : String(err) }, 'metrics scrape failed');
            res.writeHead(500, TEXT).end('metrics scrape failed\n');
        });
    };
}
//# sourceMappingURL=metrics-server.js.map
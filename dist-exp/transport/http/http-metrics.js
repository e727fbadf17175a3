import { UNMATCHED_ROUTE } from '../../metrics/metrics.js';
/** The kind of a request from its path, before any route matched it. */
export function requestKind(req, mcpPath) {
    const path = req.path;
    if (path === mcpPath)
        return 'mcp';
    if (/^\/api\/v1\/agents\/[^/]+\/[^/]+\/wait$/.test(path))
        return 'wait';
    if (/^\/api\/v1\/agents\/[^/]+\/[^/]+\/status$/.test(path) && req.query.watch === 'true')
        return 'status_stream';
    return 'other';
}
/** The route pattern that answered `req`, or `unmatched`. */
export function routeOf(req) {
    const route = req.route;
    if (!route || typeof route.path !== 'string')
        return UNMATCHED_ROUTE;
    const joined = `${req.baseUrl}${route.path === '/' && req.baseUrl ? '' : route.path}`;
    return joined || '/';
}
/** The middleware; mount it before every router. */
export function httpMetrics(metrics, mcpPath = '/mcp') {
    return (req, res, next) => {
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
//# sourceMappingURL=http-metrics.js.map
/**
 * The express app of the main listener, in the order a request meets it: context, metrics, access log;
 * `/healthz` and `/readyz` (never guarded, never asking a dependency, so an outage shows in real answers,
 * not as restarted pods; `/readyz` 503 once shutdown began); open routes (RFC 9728); `/api/v1` and the MCP
 * path, each behind the origin check and the optional bearer guard (MCP loaded on first use or by
 * `warmUp`); a JSON 404 and one error handler. Trust boundary: `auth` is where OAuth plugs in, before
 * `/api/v1` and MCP only; without it no request has a caller and the service acts as its ServiceAccount.
 */
import express, {} from 'express';
import { invalid, notFound, toAppError, toRestErrorBody } from './core/errors.js';
import { jsonRpcError } from './transport/mcp/json-rpc-error.js';
import { lazyMcpHandler } from './transport/mcp/lazy-handler.js';
import { createRestRouter, restCacheHeaders } from './transport/rest/router.js';
import { bindCaller, requestContext } from './transport/http/context.js';
import { httpMetrics } from './transport/http/http-metrics.js';
import { originGuard } from './transport/http/origin-guard.js';
import { requestLogger } from './transport/http/request-log.js';
/** The probe paths; answered before anything that could fail or be guarded. */
export const PROBE_PATHS = ['/healthz', '/readyz'];
/** Build the app. */
export function createApp(options) {
    const { service, log, version, metrics } = options;
    const mcpPath = options.mcpPath ?? '/mcp';
    const guards = splitGuard(options.auth);
    const app = express();
    app.disable('x-powered-by');
    app.use(requestContext(log));
    if (metrics)
        app.use(httpMetrics(metrics, mcpPath));
    app.use(requestLogger(log));
    app.get('/healthz', (_req, res) => {
        res.type('text/plain').send('ok');
    });
    app.get('/readyz', (_req, res) => {
        if (options.lifecycle?.stopping)
            res.status(503).type('text/plain').send('shutting down');
        else
            res.type('text/plain').send('ok');
    });
    if (options.publicRoutes)
        app.use(options.publicRoutes);
    const allowedOrigins = options.allowedOrigins;
    app.use('/api/v1', restCacheHeaders, originGuard({ allowedOrigins }), ...guards.rest, bindCaller(), createRestRouter({ service, log }));
    if (options.mcpEnabled ?? true) {
        const mcpOrigin = originGuard({
            allowedOrigins,
            respond: (res, message) => {
                res.status(403).json(jsonRpcError(-32000, `Forbidden: ${message}`));
            },
        });
        const mcp = lazyMcpHandler({ service, log, version, metrics });
        warmUps.set(app, mcp.load);
        app.all(mcpPath, mcpOrigin, ...guards.mcp, bindCaller(), mcp.handler);
    }
    app.use((req, res) => {
        const error = notFound(`no route for ${req.method} ${req.path}`);
        res.status(error.status).json(toRestErrorBody(error));
    });
    app.use(finalErrorHandler());
    return app;
}
const warmUps = new WeakMap();
/**
 * Loads what the app defers until its first request (the MCP handler), so that request
 * does not wait for it; `serve` calls it once the listeners are bound.
 */
export async function warmUp(app) {
    await warmUps.get(app)?.();
}
function splitGuard(auth) {
    if (!auth)
        return { rest: [], mcp: [] };
    if (typeof auth === 'function')
        return { rest: [auth], mcp: [auth] };
    return { rest: [auth.rest], mcp: [auth.mcp] };
}
/** What an error that reached the app level is answered with. */
export function errorForResponse(err) {
    // Errors of express's own body parsing and routing carry a 4xx status meant for the client.
    const status = err?.status
        ?? err?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500 && err.expose !== false) {
        const message = err instanceof Error ? err.message : String(err);
        return { status, error: invalid(message) };
    }
    const error = toAppError(err);
    return { status: error.status, error };
}
function finalErrorHandler() {
    return (err, req, res, next) => {
        // A response already under way cannot be replaced: let express end the connection.
        if (res.headersSent)
            return next(err);
        const { status, error } = errorForResponse(err);
        if (status >= 500)
            req.ctx.log.error({ err: error.message, code: error.code }, 'request failed');
        res.status(status).json(toRestErrorBody(error));
    };
}
//# sourceMappingURL=app.js.map
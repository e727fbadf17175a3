import { invalid, ServiceUnavailable, toAppError, toRestErrorBody } from '../../core/errors.js';
import { challengeAfterGuard } from '../http/auth.js';
import { sendJson } from '../http/send-json.js';
/** The error middleware of the REST router; `log` is used when the request has no context logger. */
export function restErrorHandler(log) {
    return (err, req, res, next) => {
        if (res.headersSent)
            return next(err);
        const appError = toAppError(fromRouting(err));
        const status = appError.status;
        const requestLog = req.ctx?.log ?? log;
        const where = { method: req.method, path: req.originalUrl.split('?')[0], status, code: appError.code };
        if (status >= 500)
            requestLog.error({ ...where, err }, 'request failed');
        else
            requestLog.debug({ ...where, message: appError.message }, 'request refused');
        challengeAfterGuard(req, res, appError);
        if (appError instanceof ServiceUnavailable)
            res.setHeader('Retry-After', String(appError.retryAfterSeconds));
        const body = toRestErrorBody(appError);
        sendJson(res, status, body);
    };
}
/**
 * An error express's router raised before any route ran, as the AppError it is: a path
 * parameter that is not valid percent-encoding (`URIError`, status 400, "Failed to
 * decode param '<segment>'"). Anything else is returned as it is.
 */
export function fromRouting(err) {
    if (!(err instanceof URIError) || err.status !== 400)
        return err;
    const segment = /'(.*)'$/s.exec(err.message)?.[1] ?? '';
    return invalid(`the path segment ${JSON.stringify(segment)} is not valid percent-encoding; encode the namespace and name as ` +
        `URL path segments`, err);
}
//# sourceMappingURL=error-middleware.js.map
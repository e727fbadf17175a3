import { callerLogValue } from '../../identity/caller.js';
const PROBES = new Set(['/healthz', '/readyz']);
function pathOf(url) {
    return (url ?? '/').split('?')[0] ?? '/';
}
const PLAIN_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const REDACTED = '[redacted]';
/** The URL as a log line may carry it: the path, and the query keys with their values redacted. */
export function loggableUrl(url) {
    const raw = url ?? '/';
    const at = raw.indexOf('?');
    if (at < 0)
        return raw;
    const keys = [...new URLSearchParams(raw.slice(at + 1)).keys()];
    const query = keys.map((key) => `${PLAIN_KEY.test(key) ? encodeURIComponent(key) : REDACTED}=${REDACTED}`).join('&');
    return query ? `${raw.slice(0, at)}?${query}` : raw.slice(0, at);
}
/** The request-log middleware; mount it after `requestContext` so the id is known. */
export function requestLogger(log) {
    const accessLog = log.child({}, { redact: { paths: [] } });
    return (req, res, next) => {
        const started = Date.now();
        let logged = false;
        const done = () => {
            if (logged)
                return;
            logged = true;
            res.off('finish', done);
            res.off('close', done);
            const path = pathOf(req.originalUrl ?? req.url);
            const status = res.statusCode;
            // A probe is debug whatever it answers: /readyz 503s on purpose while the pod drains.
            const level = PROBES.has(path) ? 'debug' : status >= 500 ? 'error' : 'info';
            if (!accessLog.isLevelEnabled(level))
                return;
            const caller = req.ctx?.caller;
            accessLog[level]({
                ...(req.ctx ? { requestId: req.ctx.requestId } : {}),
                req: { method: req.method, url: loggableUrl(req.originalUrl ?? req.url) },
                ...(caller ? { caller: callerLogValue(caller) } : {}),
                res: { statusCode: status },
                responseTime: Date.now() - started,
            }, `${req.method} ${path} ${status}`);
        };
        res.on('finish', done);
        res.on('close', done);
        next();
    };
}
//# sourceMappingURL=request-log.js.map
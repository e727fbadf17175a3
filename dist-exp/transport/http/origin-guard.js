import { isIP } from 'node:net';
import { forbidden, toRestErrorBody } from '../../core/errors.js';
import { sendJson } from './send-json.js';
/** True for host names that can only mean the user's own machine. */
export function isLoopbackOriginHost(hostname) {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost'))
        return true;
    if (host === '::1')
        return true;
    return isIP(host) === 4 && host.startsWith('127.');
}
/** The normalised origin of a URL-ish string (`https://a.example` for `https://A.example:443/x`), or undefined. */
export function normaliseOrigin(value) {
    if (!URL.canParse(value))
        return undefined;
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return undefined;
    return url.origin;
}
/** Why an Origin header is refused, or undefined when it is accepted (or absent). */
export function refuseOrigin(origin, allowed) {
    if (origin === undefined)
        return undefined;
    const normalised = normaliseOrigin(origin);
    if (normalised && (isLoopbackOriginHost(new URL(normalised).hostname) || allowed.has(normalised)))
        return undefined;
    const shown = origin.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
    return (`requests from the browser origin "${shown}" are refused (protection against cross-site requests and ` +
        `DNS rebinding): ` +
        'browsers may call agent-manager only from a loopback origin, its own public URL (--oauth-base-url) or an ' +
        'origin listed in ' +
        '--allowed-origins (AGENT_MANAGER_ALLOWED_ORIGINS); add this origin there, or call agent-manager from a ' +
        'server-side client, ' +
        'which sends no Origin header');
}
/** The guard. */
export function originGuard(options = {}) {
    const allowed = new Set((options.allowedOrigins ?? []).map(normaliseOrigin).filter((o) => o !== undefined));
    const respond = options.respond ?? ((res, message) => {
        sendJson(res, 403, toRestErrorBody(forbidden(message)));
    });
    return (req, res, next) => {
        const header = req.headers.origin;
        const origin = Array.isArray(header) ? header[0] : header;
        const reason = refuseOrigin(origin, allowed);
        if (reason === undefined)
            return next();
        req.ctx?.log.info({ method: req.method, path: req.originalUrl.split('?')[0], origin: String(origin).slice(0, 200) }, 'request refused: browser origin not allowed');
        respond(res, reason);
    };
}
//# sourceMappingURL=origin-guard.js.map
import { toAppError, toRestErrorBody, unauthenticated } from '../../core/errors.js';
import { MAX_TOKEN_BYTES } from '../../identity/jwt-precheck.js';
import { sendJson } from './send-json.js';
import { protectedResourceMetadataUrl } from './oauth-metadata.js';
/** The largest Authorization header looked at: `Bearer ` plus the largest token. */
export const MAX_AUTHORIZATION_HEADER_BYTES = 'Bearer '.length + MAX_TOKEN_BYTES;
/** The bearer guard. */
export function bearerAuth(options) {
    const { verifier, resourceMetadataUrl, log } = options;
    const requireToken = options.requireToken ?? true;
    return async (req, res, next) => {
        // Kept on the request so a 401 raised further in (see `challengeAfterGuard`) names it too.
        req.resourceMetadataUrl = resourceMetadataUrl;
        const header = req.headers.authorization;
        if (header === undefined || header === '') {
            if (!requireToken)
                return next();
            return refuse(req, res, {
                resourceMetadataUrl, log, error: noCredentials(resourceMetadataUrl), tokenSent: false,
            });
        }
        // Why 401 and not 431: the client can fix this only by getting another token, and
        // MCP clients and muster act on a 401 with a challenge; a 431 carries none.
        if (header.length > MAX_AUTHORIZATION_HEADER_BYTES) {
            const error = unauthenticated(`the Authorization header is too large (${header.length} bytes; the limit is ` +
                `${MAX_AUTHORIZATION_HEADER_BYTES})`);
            return refuse(req, res, { resourceMetadataUrl, log, error, tokenSent: true });
        }
        const [scheme = '', ...rest] = header.trim().split(/ +/);
        if (scheme.toLowerCase() !== 'bearer') {
            return refuse(req, res, {
                resourceMetadataUrl, log, error: noCredentials(resourceMetadataUrl, scheme), tokenSent: false,
            });
        }
        if (rest.length !== 1) {
            const error = unauthenticated('the Authorization header must be the word Bearer followed by exactly one token');
            return refuse(req, res, { resourceMetadataUrl, log, error, tokenSent: true });
        }
        const token = rest[0];
        let caller;
        try {
            caller = await verifier.verify(token);
        }
        catch (err) {
            const error = toAppError(err);
            if (error.code === 'unauthenticated') {
                return refuse(req, res, { resourceMetadataUrl, log, error, tokenSent: true });
            }
            // The identity provider failed, not the caller: no challenge, the error's own status.
            log.warn({ method: req.method, path: pathOf(req), err: error.message }, `token not verified: ${error.message}`);
            sendJson(res, error.status, toRestErrorBody(error));
            return;
        }
        req.caller = caller;
        req.callerToken = token;
        next();
    };
}
/** Guards for both protected surfaces, each naming its own metadata document in its 401s. */
export function resourceServerGuards(options) {
    const { baseUrl, mcpPath = '/mcp', ...rest } = options;
    return {
        rest: bearerAuth({ ...rest, resourceMetadataUrl: protectedResourceMetadataUrl(baseUrl) }),
        mcp: bearerAuth({ ...rest, resourceMetadataUrl: protectedResourceMetadataUrl(baseUrl, mcpPath) }),
    };
}
/**
 * The `WWW-Authenticate` value. Without `description` it is the bare challenge for a
 * request that carried no bearer; with one it is an `invalid_token` challenge.
 */
export function bearerChallenge(resourceMetadataUrl, description) {
    const parts = [`resource_metadata="${headerSafe(resourceMetadataUrl)}"`];
    if (description !== undefined)
        parts.push('error="invalid_token"', `error_description="${headerSafe(description)}"`);
    return `Bearer ${parts.join(', ')}`;
}
/**
 * Answer 401 for an `unauthenticated` AppError raised anywhere in a request (the REST
 * and MCP error mappers use this too, e.g. for a request without a token to act with).
 */
export function sendUnauthenticated(res, error, resourceMetadataUrl, tokenSent = true) {
    // Written as every REST answer is (application/json, indented, no body-hash ETag).
    res.setHeader('WWW-Authenticate', bearerChallenge(resourceMetadataUrl, tokenSent ? error.detail : undefined));
    sendJson(res, 401, toRestErrorBody(error));
}
/**
 * A 401 raised behind the guard: a request that reached a Kubernetes call without a
 * token to act with, or whose token the API server refused (it expired after the guard
 * let it in). Attaches the challenge (`error="invalid_token"`: sign in again) and logs
 * the refusal at info on the request's logger, which names the caller. Outside the
 * guard (no OAuth) and for any other error it does nothing.
 */
export function challengeAfterGuard(req, res, error) {
    if (error.code !== 'unauthenticated' || !req.resourceMetadataUrl)
        return;
    res.setHeader('WWW-Authenticate', bearerChallenge(req.resourceMetadataUrl, error.detail));
    req.ctx?.log.info({ method: req.method, path: pathOf(req), reason: error.detail }, `request refused: ${error.detail}`);
}
/** Text allowed in a quoted header parameter: printable ASCII without `"` and `\` (RFC 6750 section 3). */
export function headerSafe(text) {
    const cleaned = text.replace(/["\\]/g, '').replace(/[^\x20-\x7e]/g, '?');
    return cleaned.length > 512 ? `${cleaned.slice(0, 512)}...` : cleaned;
}
function noCredentials(resourceMetadataUrl, scheme) {
    const got = scheme ? ` (got the ${headerSafe(scheme.slice(0, 20))} scheme)` : '';
    return unauthenticated(`this endpoint acts as the caller: send the identity provider's id_token as "Authorization: Bearer ` +
        `<token>"${got}; where to sign in: ${resourceMetadataUrl}`);
}
function refuse(req, res, refusal) {
    const { log, error, tokenSent } = refusal;
    // Clients probe without a token while discovering where to sign in: that is debug noise.
    const fields = { method: req.method, path: pathOf(req), reason: error.detail };
    if (tokenSent)
        log.info(fields, `request refused: ${error.detail}`);
    else
        log.debug(fields, `request refused: ${error.detail}`);
    sendUnauthenticated(res, error, refusal.resourceMetadataUrl, tokenSent);
}
/** The request's full path (`req.path` is relative to the mount point); never the query. */
function pathOf(req) {
    return req.originalUrl.split('?')[0] ?? '';
}
//# sourceMappingURL=auth.js.map
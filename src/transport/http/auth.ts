/**
 * The bearer guard in front of `/api/v1/*` and `/mcp`, where a request becomes a verified caller or a
 * 401 saying where to sign in. Trust boundary: nothing behind it sees an unverified bearer; the caller
 * and raw token go on the request for its context and are never logged or echoed. The 401 follows
 * RFC 6750 §3 and RFC 9728 §5.1 (`WWW-Authenticate: Bearer resource_metadata="…"`, plus `invalid_token`
 * for a bearer that fails; docs/security.md "How a refusal looks") with our error body.
 */
import type { Logger } from 'pino';
import { invalid, toAppError, toRestErrorBody, unauthenticated, type AppError } from '../../core/errors.js';
import type { Caller } from '../../identity/caller.js';
import { MAX_TOKEN_BYTES } from '../../identity/jwt-precheck.js';
import type { TokenVerifier } from '../../identity/token-verifier.js';
import type { HttpRequest, HttpResponse, Step } from './exchange.js';
import { sendJson } from './send-json.js';
import { protectedResourceMetadataUrl } from './oauth-metadata.js';

/** The largest Authorization header looked at: `Bearer ` plus the largest token. */
export const MAX_AUTHORIZATION_HEADER_BYTES = 'Bearer '.length + MAX_TOKEN_BYTES;

export interface BearerAuthOptions {
  verifier: TokenVerifier;
  /** The RFC 9728 document for this resource, named in every 401. */
  resourceMetadataUrl: string;
  log: Logger;
  /** Refuse requests without a token (default). When false they pass with no caller; a bad token is still refused. */
  requireToken?: boolean;
}

/** The bearer guard: answers a refusal (true), or sets `req.caller` and `req.callerToken` for the next step. */
export function bearerAuth(options: BearerAuthOptions): Step {
  const { verifier, resourceMetadataUrl, log } = options;
  const requireToken = options.requireToken ?? true;

  return async (req: HttpRequest, res: HttpResponse): Promise<boolean | undefined> => {
    // Kept on the request so a 401 raised further in (see `challengeAfterGuard`) names it too.
    req.resourceMetadataUrl = resourceMetadataUrl;
    // Node keeps the first of repeated Authorization headers; a proxy may read the last. Two credentials
    // are a malformed request (RFC 6750 §3.1 invalid_request, 400), so no two parties disagree on who calls.
    if ((req.headersDistinct.authorization?.length ?? 0) > 1) {
      const error = invalid('the request carries more than one Authorization header; send exactly one');
      const description = headerSafe(error.detail);
      res.setHeader('WWW-Authenticate', `Bearer error="invalid_request", error_description="${description}"`);
      log.info({ method: req.method, path: req.path, reason: error.detail }, `request refused: ${error.detail}`);
      sendJson(res, 400, toRestErrorBody(error));
      return true;
    }
    const header = req.headers.authorization;
    if (header === undefined || header === '') {
      if (!requireToken) return undefined;
      return refuse(req, res, {
        resourceMetadataUrl, log, error: noCredentials(resourceMetadataUrl), tokenSent: false,
      });
    }
    // Why 401 and not 431: the client can fix this only by getting another token, and
    // MCP clients and muster act on a 401 with a challenge; a 431 carries none.
    if (header.length > MAX_AUTHORIZATION_HEADER_BYTES) {
      const error = unauthenticated(
        `the Authorization header is too large (${header.length} bytes; the limit is ` +
        `${MAX_AUTHORIZATION_HEADER_BYTES})`,
      );
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
    const [token = ''] = rest;
    let caller: Caller;
    try {
      caller = await verifier.verify(token);
    } catch (err) {
      const error = toAppError(err);
      if (error.code === 'unauthenticated') {
        return refuse(req, res, { resourceMetadataUrl, log, error, tokenSent: true });
      }
      // The identity provider failed, not the caller: no challenge, the error's own status.
      log.warn({ method: req.method, path: req.path, err: error.message }, `token not verified: ${error.message}`);
      sendJson(res, error.status, toRestErrorBody(error));
      return true;
    }
    req.caller = caller;
    req.callerToken = token;
    return undefined;
  };
}

/** Guards for both protected surfaces, each naming its own metadata document in its 401s. */
export function resourceServerGuards(options: {
  verifier: TokenVerifier;
  log: Logger;
  /** The service's public base URL. */
  baseUrl: string;
  mcpPath?: string;
  requireToken?: boolean;
}): { rest: Step; mcp: Step } {
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
export function bearerChallenge(resourceMetadataUrl: string, description?: string): string {
  const parts = [`resource_metadata="${headerSafe(resourceMetadataUrl)}"`];
  if (description !== undefined) parts.push('error="invalid_token"', `error_description="${headerSafe(description)}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * Answer 401 for an `unauthenticated` AppError raised anywhere in a request (the REST
 * and MCP error mappers use this too, e.g. for a request without a token to act with).
 */
export function sendUnauthenticated(
  res: HttpResponse, error: AppError, resourceMetadataUrl: string, tokenSent = true,
): void {
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
export function challengeAfterGuard(req: HttpRequest, res: HttpResponse, error: AppError): void {
  if (error.code !== 'unauthenticated' || !req.resourceMetadataUrl) return;
  res.setHeader('WWW-Authenticate', bearerChallenge(req.resourceMetadataUrl, error.detail));
  req.ctx?.log.info({ method: req.method, path: req.path, reason: error.detail },
    `request refused: ${error.detail}`);
}

/** Text allowed in a quoted header parameter: printable ASCII without `"` and `\` (RFC 6750 section 3). */
export function headerSafe(text: string): string {
  const cleaned = text.replace(/["\\]/g, '').replace(/[^\x20-\x7e]/g, '?');
  return cleaned.length > 512 ? `${cleaned.slice(0, 512)}...` : cleaned;
}

function noCredentials(resourceMetadataUrl: string, scheme?: string): AppError {
  const got = scheme ? ` (got the ${headerSafe(scheme.slice(0, 20))} scheme)` : '';
  return unauthenticated(
    `this endpoint acts as the caller: send the identity provider's id_token as "Authorization: Bearer ` +
      `<token>"${got}; where to sign in: ${resourceMetadataUrl}`,
  );
}

/** Logs and answers the refusal; true, as the guard returns for a request it answered. */
function refuse(
  req: HttpRequest,
  res: HttpResponse,
  refusal: { resourceMetadataUrl: string; log: Logger; error: AppError; tokenSent: boolean },
): true {
  const { log, error, tokenSent } = refusal;
  // Clients probe without a token while discovering where to sign in: that is debug noise.
  const fields = { method: req.method, path: req.path, reason: error.detail };
  if (tokenSent) log.info(fields, `request refused: ${error.detail}`);
  else log.debug(fields, `request refused: ${error.detail}`);
  sendUnauthenticated(res, error, refusal.resourceMetadataUrl, tokenSent);
  return true;
}

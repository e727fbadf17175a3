/**
 * The browser-origin check in front of `/api/v1` and MCP (the MCP streamable HTTP transport asks servers
 * to refuse an invalid `Origin` with 403). Trust boundary: without it any visited page could send a
 * preflight-free write, and a DNS-rebinding page could drive every endpoint, with the service's own
 * credentials when OAuth is off. No `Origin` (non-browser clients), a loopback origin or one in
 * `allowedOrigins` passes; anything else, `null` included, is 403 before the bearer guard. `Host` is not
 * consulted: a rebinding page controls it and proxies rewrite it (docs/security.md "Browser origins").
 */
import { isIP } from 'node:net';
import { forbidden, toRestErrorBody } from '../../core/errors.js';
import type { HttpRequest, HttpResponse, Step } from './exchange.js';
import { sendJson } from './send-json.js';

export interface OriginGuardOptions {
  /** Origins (`scheme://host[:port]`) accepted besides loopback ones; others are refused. */
  allowedOrigins?: readonly string[];
  /** How a refusal is written; default: the REST error body `{"error":{"code":"forbidden",…}}`. */
  respond?: (res: HttpResponse, message: string) => void;
}

/** True for host names that can only mean the user's own machine. */
export function isLoopbackOriginHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** The normalised origin of a URL-ish string (`https://a.example` for `https://A.example:443/x`), or undefined. */
export function normaliseOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin;
}

/** Why an Origin header is refused, or undefined when it is accepted (or absent). */
export function refuseOrigin(origin: string | undefined, allowed: ReadonlySet<string>): string | undefined {
  if (origin === undefined) return undefined;
  const normalised = normaliseOrigin(origin);
  if (normalised && (isLoopbackOriginHost(new URL(normalised).hostname) || allowed.has(normalised))) return undefined;
  const shown = origin.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
  return (
    `requests from the browser origin "${shown}" are refused (protection against cross-site requests and ` +
    `DNS rebinding): ` +
    'browsers may call agent-manager only from a loopback origin, its own public URL (--oauth-base-url) or an ' +
    'origin listed in ' +
    '--allowed-origins (AGENT_MANAGER_ALLOWED_ORIGINS); add this origin there, or call agent-manager from a ' +
    'server-side client, ' +
    'which sends no Origin header'
  );
}

/** The listed origins, normalised; the guard and CORS (cors.ts) both read them from this set. */
export function originSet(origins: readonly string[] = []): ReadonlySet<string> {
  return new Set(origins.map(normaliseOrigin).filter((o): o is string => o !== undefined));
}

/** The guard: answers a refused origin (true), or returns nothing for the next step. */
export function originGuard(options: OriginGuardOptions = {}): Step {
  const allowed = originSet(options.allowedOrigins);
  const respond = options.respond ?? ((res: HttpResponse, message: string) => {
    sendJson(res, 403, toRestErrorBody(forbidden(message)));
  });
  return (req: HttpRequest, res: HttpResponse): boolean | undefined => {
    const header = req.headers.origin;
    const origin = Array.isArray(header) ? header[0] : header;
    const reason = refuseOrigin(origin, allowed);
    if (reason === undefined) return undefined;
    req.ctx?.log.info(
      { method: req.method, path: req.path, origin: String(origin).slice(0, 200) },
      'request refused: browser origin not allowed',
    );
    respond(res, reason);
    return true;
  };
}

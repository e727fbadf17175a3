/**
 * One log line per finished request (pino-http): method, URL, status, duration and the
 * request id, and the caller once the OAuth guard has named one; nothing else. Headers are
 * never serialized, so a bearer cannot reach the log even before the root logger's
 * redaction (REDACT_PATHS) would remove it. The URL is logged as its path and its query
 * keys with every value replaced by `[redacted]`: clients put tokens in query strings
 * (`?access_token=…`, RFC 6750 §2.3, which the guard refuses), and a log line is no place
 * for one; a key that is not a short plain word is redacted too. Levels:
 * 5xx at error, the probes at debug (a kubelet calls them every few seconds), everything
 * else at info.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { callerLogValue } from '../../identity/caller.js';

const PROBES = new Set(['/healthz', '/readyz']);

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}

const PLAIN_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const REDACTED = '[redacted]';

/** The URL as a log line may carry it: the path, and the query keys with their values redacted. */
export function loggableUrl(url: string | undefined): string {
  const raw = url ?? '/';
  const at = raw.indexOf('?');
  if (at < 0) return raw;
  const keys = [...new URLSearchParams(raw.slice(at + 1)).keys()];
  const query = keys.map((key) => `${PLAIN_KEY.test(key) ? encodeURIComponent(key) : REDACTED}=${REDACTED}`).join('&');
  return query ? `${raw.slice(0, at)}?${query}` : raw.slice(0, at);
}

/** The request-log middleware; mount it after `requestContext` so the id is known. */
export function requestLogger(log: Logger): RequestHandler {
  return pinoHttp<IncomingMessage, ServerResponse>({
    logger: log,
    genReqId: (req) => (req as Request).ctx?.requestId ?? '',
    customAttributeKeys: { reqId: 'requestId' },
    // The guard names the caller after this middleware ran; the props are read again when
    // the response is logged, so the access line carries `caller` like the write lines do.
    customProps: (req) => {
      const caller = (req as Request).ctx?.caller;
      return caller ? { caller: callerLogValue(caller) } : {};
    },
    quietReqLogger: true,
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: loggableUrl(req.url) }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (req, res, err) => {
      if (res.statusCode >= 500 || err) return 'error';
      if (PROBES.has(pathOf((req as Request).originalUrl ?? req.url))) return 'debug';
      return 'info';
    },
    customSuccessMessage: (req, res) => `${req.method} ${pathOf((req as Request).originalUrl ?? req.url)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf((req as Request).originalUrl ?? req.url)} ${res.statusCode}`,
  }) as unknown as RequestHandler;
}

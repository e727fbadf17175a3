/**
 * One log line per finished request (pino-http): method, URL, status, duration and the
 * request id, and the caller once the OAuth guard has named one; nothing else. Headers are never serialized, so a bearer cannot reach the
 * log even before the root logger's redaction (REDACT_PATHS) would remove it. Levels:
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
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
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

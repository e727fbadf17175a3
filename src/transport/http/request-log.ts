/**
 * One log line per finished request: method, URL, status, duration and the request id,
 * and the caller once the OAuth guard has named one; nothing else. Headers are never
 * logged, so a bearer cannot reach the log even before the root logger's redaction
 * (REDACT_PATHS) would remove it. The URL is logged as its path and its query keys with
 * every value replaced by `[redacted]`: clients put tokens in query strings
 * (`?access_token=…`, RFC 6750 §2.3, which the guard refuses), and a log line is no place
 * for one; a key that is not a short plain word is redacted too. Levels: the probes at debug
 * whatever they answer (a kubelet calls them every few seconds, and /readyz answers 503 on
 * purpose during a drain), other 5xx at error, everything else at info.
 *
 * The line is written when the response finishes, or when the connection closes before it
 * did, through one logger made once: a child of the root logger without its redaction
 * pass. Every field of the line is built here from parts that hold no secret (the method,
 * the URL with its query values redacted, the status, the time, the request id the
 * context checked, the caller's name), so the pass, which walks every redaction path for
 * every line and was a tenth of the CPU of `GET /info`, has nothing to find. No child
 * logger per request is made for it either (pino-http made three). Its shape is
 * pino-http's: `requestId`, `req: { method, url }`, `res: { statusCode }`, `responseTime`
 * in ms, and `msg` `"<METHOD> <path> <status>"`.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
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
  const accessLog = log.child({}, { redact: { paths: [] } });
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = Date.now();
    let logged = false;
    const done = (): void => {
      if (logged) return;
      logged = true;
      res.off('finish', done);
      res.off('close', done);
      const path = pathOf(req.originalUrl ?? req.url);
      const status = res.statusCode;
      // A probe is debug whatever it answers: /readyz 503s on purpose while the pod drains.
      const level = PROBES.has(path) ? 'debug' : status >= 500 ? 'error' : 'info';
      if (!accessLog.isLevelEnabled(level)) return;
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

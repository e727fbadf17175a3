/**
 * One log line per finished request, in pino-http's shape: method, path, status, duration, request id,
 * caller, and for an MCP tool call the tool and its outcome (the labels of its metric). Headers are never
 * logged and every query value is `[redacted]` (clients put tokens there, as RFC 6750 §2.3's `access_token`),
 * so no secret can reach the line; probes log at debug, other 5xx at error (but a 501, a capability not offered
 * here, is no failure), the rest at info. Every field is built from parts without secrets, so the line skips the
 * root logger's redaction pass, which cost a tenth of `GET /info`'s CPU.
 */
import type { Logger } from 'pino';
import { callerLogValue } from '../../identity/caller.js';
import { whenClosed, type HttpRequest, type HttpResponse, type Step } from './exchange.js';

const PROBES = new Set(['/healthz', '/readyz']);

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

/** The request-log step; run it after `requestContext` so the id is known. */
export function requestLogger(log: Logger): Step {
  const accessLog = log.child({}, { redact: { paths: [] } });
  return (req: HttpRequest, res: HttpResponse): void => {
    const started = Date.now();
    whenClosed(res, () => {
      const path = req.path;
      const status = res.statusCode;
      // A probe is debug whatever it answers: /readyz 503s on purpose while the pod drains.
      // A 501 is a capability not offered here (sessions, skills, commit mode): the caller's question, not an outage.
      const level = PROBES.has(path) ? 'debug' : status >= 500 && status !== 501 ? 'error' : 'info';
      if (!accessLog.isLevelEnabled(level)) return;
      const caller = req.ctx?.caller;
      const call = req.toolCall;
      accessLog[level]({
        ...(req.ctx ? { requestId: req.ctx.requestId } : {}),
        req: { method: req.method, url: loggableUrl(req.url) },
        ...(caller ? { caller: callerLogValue(caller) } : {}),
        // A call still running when its response closed was left by its client: its outcome will be `cancelled`.
        ...(call ? { tool: call.tool, outcome: call.outcome ?? 'cancelled' } : {}),
        res: { statusCode: status },
        responseTime: Date.now() - started,
      }, `${req.method} ${path} ${status}`);
    });
  };
}

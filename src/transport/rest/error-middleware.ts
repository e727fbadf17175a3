/**
 * The one place a REST failure becomes a response: `{"error":{"code","message"}}` with its code's status
 * (or an AppError's own, such as 413); anything else is 502 `backend_error` with the message only, never
 * a stack. 5xx log at error (stack in the log only), but a 501 `unsupported` (skills, sessions or commit
 * mode not offered here: the caller's question, no failure) at info without a stack; 4xx at debug. A 401
 * behind OAuth carries the RFC 6750 challenge; a 429 or 503 says when to retry. An answer already under way
 * is not replaced: its connection is closed, so the client sees a cut answer, never a complete-looking one.
 */
import type { Logger } from 'pino';
import { RetryLater, toAppError, toRestErrorBody } from '../../core/errors.js';
import { challengeAfterGuard } from '../http/auth.js';
import type { ErrorBody } from '../../core/types.js';
import type { HttpRequest, HttpResponse } from '../http/exchange.js';
import { sendJson } from '../http/send-json.js';

/** Answers `err` for `req`; `log` is used when the request has no context logger. */
export type RestErrorHandler = (err: unknown, req: HttpRequest, res: HttpResponse) => void;

/** The error handler of the REST router. */
export function restErrorHandler(log: Logger): RestErrorHandler {
  return (err, req, res) => {
    const appError = toAppError(err);
    const status = appError.status;
    const { ctx }: Partial<Pick<HttpRequest, 'ctx'>> = req;
    const requestLog = ctx?.log ?? log;
    const where = { method: req.method, path: req.path, status, code: appError.code };
    if (res.headersSent) {
      requestLog.error({ ...where, err: appError.message }, 'request failed after its answer began');
      res.destroy();
      return;
    }
    if (appError.code === 'unsupported') {
      requestLog.info({ ...where, message: appError.message }, 'request not offered here');
    } else if (status >= 500) {
      requestLog.error({ ...where, err }, 'request failed');
    } else {
      requestLog.debug({ ...where, message: appError.message }, 'request refused');
    }
    challengeAfterGuard(req, res, appError);
    if (appError instanceof RetryLater) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    const body: ErrorBody = toRestErrorBody(appError);
    sendJson(res, status, body);
  };
}

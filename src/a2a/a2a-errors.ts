/**
 * A2A failures as the service's errors. An agent's JSON-RPC error keeps its words and maps by A2A code
 * (A2A specification): unknown task 404; a request it cannot take 400; unsupported or not now 409; else
 * 502. A transport failure (no connection, timeout, an HTML page) is 502 naming the URL tried, so an
 * operator sees which address is wrong.
 */
import { A2A_ERROR_CODE, isJsonRpcError } from '@a2a-js/sdk/errors';
import { AppError, backendError, conflict, invalid, notFound } from '../core/errors.js';
import { asObject } from '../core/json.js';

const BAD_REQUEST = new Set<number>([
  A2A_ERROR_CODE.PARSE_ERROR, A2A_ERROR_CODE.INVALID_REQUEST, A2A_ERROR_CODE.INVALID_PARAMS,
  A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, A2A_ERROR_CODE.VERSION_NOT_SUPPORTED,
  A2A_ERROR_CODE.EXTENSION_SUPPORT_REQUIRED,
]);
const CONFLICT = new Set<number>([
  A2A_ERROR_CODE.TASK_NOT_CANCELABLE, A2A_ERROR_CODE.UNSUPPORTED_OPERATION,
  A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED,
]);

/** The low-level reason of a failed fetch (`ECONNREFUSED`, `ENOTFOUND`, a timeout), else the message. */
function reason(err: unknown): string {
  const { code } = asObject(asObject(err).cause);
  if (typeof code === 'string') return code;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return 'the request timed out';
  }
  const message = err instanceof Error ? err.message : String(err);
  // An SDK message can quote a whole HTML error page: one line, bounded.
  return message.replace(/\s+/g, ' ').slice(0, 300);
}

/** `err` (from the SDK or fetch) as an AppError; `what` is the agent, `url` the endpoint tried. */
export function a2aError(err: unknown, what: string, url: string): AppError {
  if (err instanceof AppError) return err;
  if (isJsonRpcError(err)) {
    const text = `agent ${what} answered: ${err.message}`;
    if (err.envelopeCode === A2A_ERROR_CODE.TASK_NOT_FOUND) return notFound(text, err);
    if (BAD_REQUEST.has(err.envelopeCode)) return invalid(text, err);
    if (CONFLICT.has(err.envelopeCode)) return conflict(text, err);
    return backendError(`kagent: ${text} (A2A error ${err.envelopeCode})`, err);
  }
  return backendError(`kagent: agent ${what} is not reachable over A2A at ${url}: ${reason(err)}`, err);
}

/**
 * The service's errors as one typed exception: every refusal is `{"error":{"code","message"}}`
 * (api/openapi.yaml, the Error schema), and `unwrap` turns an openapi-fetch result into its data or
 * an `AgentManagerError` carrying the status, the code, the message (which says what to do next)
 * and `Retry-After` when the service sent one.
 */
import type { components } from './openapi.generated.js';

/** The body of every error answer. */
export type ErrorBody = components['schemas']['Error'];
/** The machine-readable error codes (`invalid_request`, `not_found`, `conflict`, …). */
export type ErrorCode = ErrorBody['error']['code'];

export class AgentManagerError extends Error {
  override readonly name = 'AgentManagerError';
  constructor(
    /** The HTTP status (400, 404, 409, 412, …). */
    readonly status: number,
    /** The error code of the body; `undefined` when the answer was not the documented Error shape. */
    readonly code: ErrorCode | undefined,
    message: string,
    /** Seconds to wait before calling again, from `Retry-After` (429 and 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** The error an answer stands for: its documented body, or the status line when it had none. */
export function toAgentManagerError(response: Response, body: unknown): AgentManagerError {
  const retry = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  const retryAfter = Number.isFinite(retry) ? retry : undefined;
  if (isErrorBody(body)) return new AgentManagerError(response.status, body.error.code, body.error.message, retryAfter);
  const line = `HTTP ${response.status} ${response.statusText}`.trim();
  return new AgentManagerError(response.status, undefined, line, retryAfter);
}

/** An openapi-fetch result, as every call of the client returns it. */
interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; an `AgentManagerError` for any other. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.response.ok || result.error !== undefined) throw toAgentManagerError(result.response, result.error);
  return result.data as T;
}

/**
 * The error vocabulary: nine stable codes, one `AppError`, and the two renderings every transport uses
 * (REST `{"error":{"code","message"}}`, MCP tool text `"<code>: <message>"`). Messages keep the sentinel
 * prefixes (`invalid request: …`, `not found: …`, `conflict: …`) because portals and muster
 * configurations compare strings; `detail` is the message without it, as `validate_agent` reports it.
 */
import type { ErrorBody } from './types.js';

/** The stable error codes (frozen external names), as api/openapi.yaml's Error body lists them. */
export type ErrorCode = ErrorBody['error']['code'];
export const ErrorCode = {
  Invalid: 'invalid_request',
  NotFound: 'not_found',
  Conflict: 'conflict',
  GitOpsOwned: 'gitops_owned',
  Forbidden: 'forbidden',
  Unauthenticated: 'unauthenticated',
  AuthRequired: 'auth_required',
  Unsupported: 'unsupported',
  Backend: 'backend_error',
} as const satisfies Record<string, ErrorCode>;

/** HTTP status per code; a `Record` so a new code cannot be added without its status. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  gitops_owned: 409,
  forbidden: 403,
  unauthenticated: 401,
  auth_required: 401,
  unsupported: 501,
  backend_error: 502,
};

/** The sentinel text that starts every message of a code (none for backend errors). */
export const SENTINEL: Record<ErrorCode, string> = {
  invalid_request: 'invalid request',
  not_found: 'not found',
  conflict: 'conflict',
  gitops_owned: 'gitops_owned',
  forbidden: 'forbidden',
  unauthenticated: 'unauthenticated',
  auth_required: 'auth_required',
  unsupported: 'unsupported',
  backend_error: '',
};

/** One error type for every failure the service reports on purpose. */
export class AppError extends Error {
  override readonly name = 'AppError';
  /** The message without its sentinel prefix. */
  readonly detail: string;

  constructor(
    readonly code: ErrorCode,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(SENTINEL[code] ? `${SENTINEL[code]}: ${detail}` : detail, options);
    this.detail = detail;
  }

  /** The HTTP status of this error's code. */
  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

export const invalid = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.Invalid, detail, { cause });
export const notFound = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.NotFound, detail, { cause });
export const conflict = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.Conflict, detail, { cause });
export const forbidden = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.Forbidden, detail, { cause });
export const unauthenticated = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.Unauthenticated, detail, { cause });
export const unsupported = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.Unsupported, detail, { cause });
export const backendError = (detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.Backend, detail, { cause });

/** The HTTP status of a failed precondition (RFC 9110 §15.5.13): REST's If-Match that no longer matches. */
export const PRECONDITION_FAILED_STATUS = 412;

/**
 * A write whose precondition no longer holds: the object changed since the version the
 * caller read. Code `conflict` on both transports (MCP has no statuses); REST answers 412
 * Precondition Failed instead of the 409 of other conflicts, because the request's own
 * precondition failed, not the write.
 */
export class PreconditionFailed extends AppError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(ErrorCode.Conflict, detail, options);
  }

  override get status(): number {
    return PRECONDITION_FAILED_STATUS;
  }
}

/** The HTTP status of a client that sent too many requests (RFC 6585 §4): the API server's throttling, passed on. */
export const TOO_MANY_REQUESTS_STATUS = 429;

/** The HTTP status of a server that is going away (RFC 9110 §15.6.4). */
export const SERVICE_UNAVAILABLE_STATUS = 503;

/** The HTTP status of a backend that did not answer in time (RFC 9110 §15.6.5). */
export const GATEWAY_TIMEOUT_STATUS = 504;

/**
 * A failure that asking again later can cure, and when: code `backend_error` (the codes are
 * frozen), REST answers its status with `Retry-After`, and the message itself says "retry after
 * N s", which is all MCP shows.
 */
export class RetryLater extends AppError {
  constructor(
    private readonly httpStatus: typeof TOO_MANY_REQUESTS_STATUS | typeof SERVICE_UNAVAILABLE_STATUS,
    detail: string, readonly retryAfterSeconds: number, options?: { cause?: unknown },
  ) {
    super(ErrorCode.Backend, detail, options);
  }

  override get status(): number {
    return this.httpStatus;
  }
}

/**
 * A request this replica stopped serving because it is shutting down, before it got
 * anywhere, or one the Kubernetes API server answered 503 until the retries ran out:
 * REST 503 with `Retry-After`, so a client asks again and another replica (or a
 * recovered API server) answers.
 */
export class ServiceUnavailable extends RetryLater {
  constructor(detail: string, retryAfterSeconds = 1, options?: { cause?: unknown }) {
    super(SERVICE_UNAVAILABLE_STATUS, detail, retryAfterSeconds, options);
  }
}

/** The Kubernetes API server's 429 (its priority and fairness throttling), still there after the retries. */
export class TooManyRequests extends RetryLater {
  constructor(detail: string, retryAfterSeconds = 1, options?: { cause?: unknown }) {
    super(TOO_MANY_REQUESTS_STATUS, detail, retryAfterSeconds, options);
  }
}

/**
 * A backend that did not answer in time: the Kubernetes API server's own `Timeout` (504) or
 * the client's request deadline. Code `backend_error`, REST 504 rather than the 502 of a
 * backend that answered wrongly, so a gateway or a retrying client can tell them apart.
 */
export class GatewayTimeout extends AppError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(ErrorCode.Backend, detail, options);
  }

  override get status(): number {
    return GATEWAY_TIMEOUT_STATUS;
  }
}

/** A wait for an agent cut short by the server's shutdown: call again. */
export const shutdownUnavailable = (namespace: string, name: string): ServiceUnavailable =>
  new ServiceUnavailable(
    `the server is shutting down and stopped waiting for agent ${namespace}/${name}; call again (another ` +
    `replica answers)`,
  );

/** The HTTP status of a request that names something the service cannot act on as it is stored (RFC 9110 §15.5.21). */
export const UNPROCESSABLE_STATUS = 422;

/**
 * A request that is well-formed but names an object that cannot be used as stored (a
 * malformed revision): code `invalid_request` on both transports, 422 on REST, since
 * sending the same request again cannot succeed and the server is not at fault.
 */
export class Unprocessable extends AppError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(ErrorCode.Invalid, detail, options);
  }

  override get status(): number {
    return UNPROCESSABLE_STATUS;
  }
}

/** True when `err` is an AppError of one of `codes`. */
export function isAppError(err: unknown, ...codes: ErrorCode[]): err is AppError {
  return err instanceof AppError && (codes.length === 0 || codes.includes(err.code));
}

/**
 * Any thrown value as an AppError. Anything that is not one already is a backend
 * error (502) whose message is the thrown message only, never a stack trace.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return backendError(message || 'unexpected failure', err);
}

/** The REST error body. */
export function toRestErrorBody(err: AppError): ErrorBody {
  return { error: { code: err.code, message: err.message } };
}

/** The MCP tool-error text: `"<code>: <message>"`. */
export function toMcpErrorText(err: AppError): string {
  return `${err.code}: ${err.message}`;
}

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
};
/** HTTP status per code; a `Record` so a new code cannot be added without its status. */
export const HTTP_STATUS = {
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
export const SENTINEL = {
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
    code;
    name = 'AppError';
    /** The message without its sentinel prefix. */
    detail;
    constructor(code, detail, options) {
        super(SENTINEL[code] ? `${SENTINEL[code]}: ${detail}` : detail, options);
        this.code = code;
        this.detail = detail;
    }
    /** The HTTP status of this error's code. */
    get status() {
        return HTTP_STATUS[this.code];
    }
}
export const invalid = (detail, cause) => new AppError(ErrorCode.Invalid, detail, { cause });
export const notFound = (detail, cause) => new AppError(ErrorCode.NotFound, detail, { cause });
export const conflict = (detail, cause) => new AppError(ErrorCode.Conflict, detail, { cause });
export const forbidden = (detail, cause) => new AppError(ErrorCode.Forbidden, detail, { cause });
export const unauthenticated = (detail, cause) => new AppError(ErrorCode.Unauthenticated, detail, { cause });
export const unsupported = (detail, cause) => new AppError(ErrorCode.Unsupported, detail, { cause });
export const backendError = (detail, cause) => new AppError(ErrorCode.Backend, detail, { cause });
/** The HTTP status of a failed precondition (RFC 9110 §15.5.13): REST's If-Match that no longer matches. */
export const PRECONDITION_FAILED_STATUS = 412;
/**
 * A write whose precondition no longer holds: the object changed since the version the
 * caller read. Code `conflict` on both transports (MCP has no statuses); REST answers 412
 * Precondition Failed instead of the 409 of other conflicts, because the request's own
 * precondition failed, not the write.
 */
export class PreconditionFailed extends AppError {
    constructor(detail, options) {
        super(ErrorCode.Conflict, detail, options);
    }
    get status() {
        return PRECONDITION_FAILED_STATUS;
    }
}
/** The HTTP status of a server that is going away (RFC 9110 §15.6.4). */
export const SERVICE_UNAVAILABLE_STATUS = 503;
/**
 * A request this replica stopped serving because it is shutting down, before it got
 * anywhere: code `backend_error` (the codes are frozen), REST 503 with `Retry-After`, so
 * a client asks again and another replica answers.
 */
export class ServiceUnavailable extends AppError {
    retryAfterSeconds;
    constructor(detail, retryAfterSeconds = 1, options) {
        super(ErrorCode.Backend, detail, options);
        this.retryAfterSeconds = retryAfterSeconds;
    }
    get status() {
        return SERVICE_UNAVAILABLE_STATUS;
    }
}
/** A wait for an agent cut short by the server's shutdown: call again. */
export const shutdownUnavailable = (namespace, name) => new ServiceUnavailable(`the server is shutting down and stopped waiting for agent ${namespace}/${name}; call again (another ` +
    `replica answers)`);
/** The HTTP status of a request that names something the service cannot act on as it is stored (RFC 9110 §15.5.21). */
export const UNPROCESSABLE_STATUS = 422;
/**
 * A request that is well-formed but names an object that cannot be used as stored (a
 * malformed revision): code `invalid_request` on both transports, 422 on REST, since
 * sending the same request again cannot succeed and the server is not at fault.
 */
export class Unprocessable extends AppError {
    constructor(detail, options) {
        super(ErrorCode.Invalid, detail, options);
    }
    get status() {
        return UNPROCESSABLE_STATUS;
    }
}
/** True when `err` is an AppError of one of `codes`. */
export function isAppError(err, ...codes) {
    return err instanceof AppError && (codes.length === 0 || codes.includes(err.code));
}
/**
 * Any thrown value as an AppError. Anything that is not one already is a backend
 * error (502) whose message is the thrown message only, never a stack trace.
 */
export function toAppError(err) {
    if (err instanceof AppError)
        return err;
    const message = err instanceof Error ? err.message : String(err);
    return backendError(message || 'unexpected failure', err);
}
/** The REST error body. */
export function toRestErrorBody(err) {
    return { error: { code: err.code, message: err.message } };
}
/** The MCP tool-error text: `"<code>: <message>"`. */
export function toMcpErrorText(err) {
    return `${err.code}: ${err.message}`;
}
//# sourceMappingURL=errors.js.map
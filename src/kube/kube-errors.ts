/**
 * Translates Kubernetes API failures into the error model, once, at the port boundary
 * (the Go service's `wrapKube`). `what` names the call in a fixed form
 * (`get helmrelease kagent/sre`, `list agents in kagent`). The underlying failure stays
 * as the cause, so a read-modify-write retry can still see a 409. A 429 or 503 the retries
 * (retry-after.ts) did not cure keeps its status and `Retry-After`; an API timeout (the
 * server's 504 or reason `Timeout`, or the client's deadline) is a 504, not a 502.
 */
import { ApiException } from '@kubernetes/client-node';
import {
  AppError, GatewayTimeout, ServiceUnavailable, TooManyRequests, backendError, conflict, forbidden, invalid, notFound,
  unauthenticated,
} from '../core/errors.js';
import { asObject, stringField, type JsonObject } from '../core/json.js';

/** The metav1.Status error body (its message, reason and details are read), {} when there is none. */
function statusBody(err: ApiException<unknown>): JsonObject {
  const body = err.body;
  return asObject(typeof body === 'string' ? safeParse(body) : body);
}

/** The `Status` message of an API error body, if it has one. */
export function apiMessage(err: ApiException<unknown>): string {
  const message = statusBody(err).message;
  return typeof message === 'string' ? message : `HTTP ${err.code}`;
}

/** The `Status` reason of an API error body (`TooManyRequests`, `Timeout`, …), or ''. */
function apiReason(err: ApiException<unknown>): string {
  const reason = statusBody(err).reason;
  return typeof reason === 'string' ? reason : '';
}

/**
 * How long the API server asked to wait, in whole seconds: its `Retry-After` header (delta
 * seconds, as client-go reads it), else the Status body's `details.retryAfterSeconds`, else 1.
 */
export function retryAfterSeconds(err: ApiException<unknown>): number {
  const header = stringField(asObject(err.headers)['retry-after']);
  if (header !== undefined && /^\d+$/.test(header.trim())) return Number(header.trim());
  const details = asObject(statusBody(err).details).retryAfterSeconds;
  return typeof details === 'number' && Number.isInteger(details) && details >= 0 ? details : 1;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 512);
  }
}

/** The HTTP status of an API failure, or undefined for transport failures. */
export function kubeStatus(err: unknown): number | undefined {
  return err instanceof ApiException ? err.code : undefined;
}

/**
 * Whether a failure is the request's deadline running out. node-fetch (under client-node)
 * rejects with its own `AbortError`, without the signal's reason; a bare
 * `TimeoutError` comes from code that reads the signal's reason.
 */
export function isDeadlineAbort(err: unknown): boolean {
  const { name } = asObject(err);
  return name === 'AbortError' || name === 'TimeoutError';
}

const WHERE_KAGENT_RUNS = 'point --kagent-namespace or --managed-namespaces at the namespace kagent runs in';

/**
 * A 404 in words that say what is missing. A get's 404 is an answer (no such object) and
 * stays short; a write into a namespace that does not exist names it; a list's 404 means
 * the namespace or the resource's API is not there (real API servers answer an empty list
 * for a missing namespace, but a proxy or a narrowed RBAC view may not), so both are named.
 */
function notFoundText(what: string, message: string): string {
  const missing = /^namespaces "([^"]+)" not found$/.exec(message)?.[1];
  if (missing) return `${what}: namespace ${missing} does not exist; create it, or ${WHERE_KAGENT_RUNS}`;
  const listed = /^list \S+ in (\S+)$/.exec(what)?.[1];
  if (listed) {
    return `${what}: the API server answered 404: check that namespace ${listed} exists (create it, or ` +
      `${WHERE_KAGENT_RUNS}) and that the resource's API (its CRD) is installed`;
  }
  return what;
}

/**
 * Any failure of a Kubernetes call as an AppError. `timeoutMs` is the request deadline
 * the call ran with, named when it ran out.
 */
export function fromKube(err: unknown, what: string, timeoutMs?: number): AppError {
  if (err instanceof AppError) return err;
  if (isDeadlineAbort(err)) {
    const limit = timeoutMs === undefined ? '' : ` within ${timeoutMs / 1000}s`;
    return new GatewayTimeout(`${what}: the Kubernetes API server did not answer${limit}; check that it is reachable ` +
      `and healthy, then retry`, { cause: err });
  }
  if (err instanceof ApiException) {
    const message = apiMessage(err);
    if (err.code === 504 || apiReason(err) === 'Timeout') {
      const reason = apiReason(err) || 'Timeout';
      return new GatewayTimeout(`${what}: the Kubernetes API server timed out (${err.code} ${reason}): ${message}; ` +
        `retry, and check the API server's load if it keeps happening`, { cause: err });
    }
    switch (err.code) {
      case 429:
      case 503: {
        const seconds = retryAfterSeconds(err);
        const state = err.code === 429 ? 'is throttling requests' : 'is unavailable';
        const reason = apiReason(err) || (err.code === 429 ? 'TooManyRequests' : 'ServiceUnavailable');
        const detail = `${what}: the Kubernetes API server ${state} (${err.code} ${reason}: ${message}); retry after ` +
          `${seconds}s`;
        return err.code === 429
          ? new TooManyRequests(detail, seconds, { cause: err })
          : new ServiceUnavailable(detail, seconds, { cause: err });
      }
      case 404:
        return notFound(notFoundText(what, message), err);
      case 403:
        return forbidden(`${what}: ${message}`, err);
      case 409:
        return conflict(`${what}: ${message}`, err);
      case 400:
      case 422:
        return invalid(`${what}: ${message}`, err);
      case 401:
        // client-node drops the body of a 401, so there is often nothing to add.
        return unauthenticated(
          `${what}: the API server refused the caller's token ` +
          `(401)${message === 'HTTP 401' ? '' : `: ${message}`}`, err);
      default:
        return backendError(`${what}: ${message}`, err);
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return backendError(`${what}: ${message}`, err);
}

/**
 * An API server that says "not now" is asked again, as client-go's rest client does (request.go's
 * `checkWait`, with_retry.go's `IsNextRetry`): a 429 or any 5xx with a `Retry-After` of whole seconds
 * is sent again after that wait, up to 10 times, writes included (the server said it did not serve
 * it); a connection error is never retried (a write may have landed). Ours: one request's waits stop
 * at `maxWaitMs` (10 s), since a caller is waiting; a longer `Retry-After` passes on (kube-errors.ts
 * keeps its status and header). Each attempt has the request's deadline; its signal ends a wait.
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { ResponseContext } from '@kubernetes/client-node';

/** How a request is sent again when the server asks for it. */
export interface RetryPolicy {
  /** Attempts after the first at most (client-go's default, 10). */
  readonly maxRetries: number;
  /** The longest one request waits between its attempts, all waits together, in milliseconds. */
  readonly maxWaitMs: number;
  /** Waits `ms`, or rejects when `signal` aborts; tests pass one that records and resolves. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** client-go's ten retries, within 10 s of waiting in all. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 10,
  maxWaitMs: 10_000,
  async sleep(ms, signal) {
    try {
      await wait(ms, undefined, { signal });
    } catch (err) {
      // The signal's own reason, as an aborted request rejects with it (http-library.ts).
      throw (signal?.reason as Error | undefined) ?? err;
    }
  },
};

/**
 * The seconds the server asked to wait before asking again, or undefined when it did not ask:
 * a 429 or 5xx with a `Retry-After` of delta seconds (client-go reads no HTTP date either).
 */
export function askedWaitSeconds(response: Pick<ResponseContext, 'httpStatusCode' | 'headers'>): number | undefined {
  const status = response.httpStatusCode;
  if (status !== 429 && status < 500) return undefined;
  const header = response.headers['retry-after']?.trim();
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * Sends with `send` until the answer is not one the server asked to have repeated, the retries
 * or the waiting budget run out, or `signal` aborts a wait (rejecting with its reason).
 */
export async function sendWithRetries(
  send: () => Promise<ResponseContext>, policy: RetryPolicy, signal?: AbortSignal,
): Promise<ResponseContext> {
  let waitedMs = 0;
  for (let retries = 0; ; retries++) {
    const response = await send();
    const seconds = askedWaitSeconds(response);
    if (seconds === undefined || retries >= policy.maxRetries) return response;
    const ms = seconds * 1000;
    if (waitedMs + ms > policy.maxWaitMs) return response;
    waitedMs += ms;
    await policy.sleep(ms, signal);
  }
}

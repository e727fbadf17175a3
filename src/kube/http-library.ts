/**
 * The HTTP library under @kubernetes/client-node's API objects: undici's `dispatch` on the dispatcher
 * the library chose, with a handler that keeps the body's chunks. WHATWG `fetch` cost three times a
 * request's own CPU; undici's `request` makes a Readable and an AsyncResource per request, which kept
 * about 4 KB of every request alive through the young-generation collections. `httpApi` is the
 * documented extension point: the library still builds URL, headers, auth and dispatcher and parses
 * answers into `ApiException`s. Bodies are read whole; redirects are not followed; retry-after.ts repeats.
 */
import { ResponseContext, SelfDecodingBody, wrapHttpLibrary, type HttpLibrary,
  type RequestContext } from '@kubernetes/client-node';
import { errors, getGlobalDispatcher, type Dispatcher } from 'undici';
import { DEFAULT_RETRY_POLICY, sendWithRetries, type RetryPolicy } from './retry-after.js';

type RawHeaders = Record<string, string | string[] | undefined>;

/** Response headers as the library's ResponseContext holds them: one string per lowercase name. */
function headerRecord(headers: RawHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** What a request that ran out of time rejects with (the name `AbortSignal.timeout` gives it). */
export function deadlineError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/**
 * One request answered whole. It settles once: with the answer, with undici's error, with the
 * reason of `signal` or, after `deadlineMs`, with a TimeoutError. A request still waiting for a
 * connection when it is given up is aborted as soon as it starts (undici cannot take it out of
 * its queue from outside), so the caller hears at once and nothing is sent.
 */
class WholeAnswer implements Dispatcher.DispatchHandler {
  #chunks: Buffer[] = [];
  #status = 0;
  #headers: Record<string, string> = {};
  #controller: Dispatcher.DispatchController | undefined;
  #reason: Error | undefined;
  #settled = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #resolve: (answer: ResponseContext) => void;
  readonly #reject: (err: unknown) => void;
  readonly #onAbort = (): void => {
    // safe: `reason` is typed any; it is what the signal was aborted with (an Error from AbortSignal.timeout or
    // the caller's controller), passed on as the rejection as fetch does.
    this.giveUp((this.#signal?.reason as Error | undefined) ?? new errors.RequestAbortedError());
  };

  constructor(
    resolve: (answer: ResponseContext) => void, reject: (err: unknown) => void,
    signal: AbortSignal | undefined, deadlineMs: number | undefined,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#signal = signal;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (deadlineMs !== undefined) this.#timer = setTimeout(() => this.giveUp(deadlineError()), deadlineMs);
  }

  /** Stop waiting with `reason`: abort the request if it started, else when it starts. */
  giveUp(reason: Error): void {
    if (this.#settled) return;
    this.#reason = reason;
    if (this.#controller) this.#controller.abort(reason);
    else this.#fail(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#reason) controller.abort(this.#reason);
    else this.#controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: RawHeaders): void {
    // An informational answer (1xx) is not the answer.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = headerRecord(headers);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (!this.#end()) return;
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#resolve(new ResponseContext(this.#status, this.#headers, new SelfDecodingBody(Promise.resolve(bytes))));
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, err: Error): void {
    this.#fail(err);
  }

  #fail(err: unknown): void {
    if (this.#end()) this.#reject(err);
  }

  /** Marks the request settled; false when it already was. */
  #end(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
    return true;
  }
}

/** One request of the library's shape, answered whole, given up after `deadlineMs` when set. */
export function sendRequest(context: RequestContext, deadlineMs?: number): Promise<ResponseContext> {
  return new Promise((resolve, reject) => {
    const signal = context.getSignal();
    if (signal?.aborted) {
      // safe: as in WholeAnswer's #onAbort, the abort's own reason (typed any) is the rejection.
      reject((signal.reason as Error | undefined) ?? new errors.RequestAbortedError());
      return;
    }
    const url = new URL(context.getUrl());
    // safe: the generated JSON APIs set a string body or none; FormData and URLSearchParams are never sent.
    const body = context.getBody() as string | Buffer | undefined;
    const dispatcher = context.getDispatcher() ?? getGlobalDispatcher();
    const handler = new WholeAnswer(resolve, reject, signal, deadlineMs);
    try {
      dispatcher.dispatch({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        // safe: the library's HttpMethod enum values are the HTTP method names undici takes.
        method: context.getHttpMethod().toString() as Dispatcher.HttpMethod,
        headers: context.getHeaders(),
        body: body ?? null,
      }, handler);
    } catch (err) {
      // safe: undici's dispatch throws only Errors (an invalid argument); the handler rejects with it as is.
      handler.onResponseError(null, err as Error);
    }
  });
}

/**
 * The library to pass as `httpApi`: each attempt given up after `deadlineMs`, and an answer the
 * server asked to have repeated (429 or 5xx with `Retry-After`) sent again under `retry`.
 */
export function undiciRequestLibrary(deadlineMs?: number, retry: RetryPolicy = DEFAULT_RETRY_POLICY): HttpLibrary {
  return wrapHttpLibrary({
    send: (context) => sendWithRetries(() => sendRequest(context, deadlineMs), retry, context.getSignal()),
  });
}

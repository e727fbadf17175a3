/**
 * A fetch with hooks around every request, for the outbound clients (the chart registry,
 * GitHub): metrics count and time each one, tracing puts a client span around it and
 * propagates `traceparent`. The hooks see the request's method and URL and the answer's
 * status; they never see bodies or headers, so no credential reaches a metric or a span.
 */

/** One outbound request, as hooks see it. */
export interface FetchCall {
  /** What the request is for: `registry`, `github`. */
  readonly peer: string;
  readonly method: string;
  readonly url: URL;
  /** Headers a hook may add to (trace context). */
  readonly headers: Headers;
}

/** Runs around one request; must return (or rethrow) what `run` does. */
export type FetchHook = (call: FetchCall, run: () => Promise<Response>) => Promise<Response>;

/** `fetchFn` with every request run through the hooks (outermost first). */
export function instrumentFetch(fetchFn: typeof fetch, peer: string, hooks: readonly FetchHook[]): typeof fetch {
  if (hooks.length === 0) return fetchFn;
  const instrumented = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const call: FetchCall = { peer, method: (init?.method ??
      (input instanceof Request ? input.method : 'GET')).toUpperCase(), url, headers };
    const run = (): Promise<Response> => fetchFn(input, { ...init, headers: call.headers });
    return hooks.reduceRight<() => Promise<Response>>((inner, hook) => () => hook(call, inner), run)();
  };
  return instrumented;
}

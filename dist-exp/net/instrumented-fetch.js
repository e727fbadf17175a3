/**
 * A fetch with hooks around every request, for the outbound clients (the chart registry,
 * GitHub): metrics count and time each one, tracing puts a client span around it and
 * propagates `traceparent`. The hooks see the request's method and URL and the answer's
 * status; they never see bodies or headers, so no credential reaches a metric or a span.
 */
/** `fetchFn` with every request run through the hooks (outermost first). */
export function instrumentFetch(fetchFn, peer, hooks) {
    if (hooks.length === 0)
        return fetchFn;
    const instrumented = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
        const call = { peer, method: (init?.method ??
                (input instanceof Request ? input.method : 'GET')).toUpperCase(), url, headers };
        const run = () => fetchFn(input, { ...init, headers: call.headers });
        return hooks.reduceRight((inner, hook) => () => hook(call, inner), run)();
    };
    return instrumented;
}
//# sourceMappingURL=instrumented-fetch.js.map
/**
 * The HTTP library under @kubernetes/client-node's API objects: undici's `dispatch` on the dispatcher
 * the library chose, with a handler that keeps the body's chunks. WHATWG `fetch` cost three times a
 * request's own CPU; undici's `request` makes a Readable and an AsyncResource per request, which kept
 * about 4 KB of every request alive through the young-generation collections. `httpApi` is the
 * documented extension point: the library still builds URL, headers, auth and dispatcher and parses
 * answers into `ApiException`s. Bodies are read whole; redirects are not followed.
 */
import { ResponseContext, SelfDecodingBody, wrapHttpLibrary } from '@kubernetes/client-node';
import { errors, getGlobalDispatcher } from 'undici';
/** Response headers as the library's ResponseContext holds them: one string per lowercase name. */
function headerRecord(headers) {
    const out = {};
    for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined)
            out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return out;
}
/** What a request that ran out of time rejects with (the name `AbortSignal.timeout` gives it). */
export function deadlineError() {
    return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}
/**
 * One request answered whole. It settles once: with the answer, with undici's error, with the
 * reason of `signal` or, after `deadlineMs`, with a TimeoutError. A request still waiting for a
 * connection when it is given up is aborted as soon as it starts (undici cannot take it out of
 * its queue from outside), so the caller hears at once and nothing is sent.
 */
class WholeAnswer {
    #chunks = [];
    #status = 0;
    #headers = {};
    #controller;
    #reason;
    #settled = false;
    #timer;
    #signal;
    #resolve;
    #reject;
    #onAbort = () => {
        this.giveUp(this.#signal?.reason ?? new errors.RequestAbortedError());
    };
    constructor(resolve, reject, signal, deadlineMs) {
        this.#resolve = resolve;
        this.#reject = reject;
        this.#signal = signal;
        signal?.addEventListener('abort', this.#onAbort, { once: true });
        if (deadlineMs !== undefined)
            this.#timer = setTimeout(() => this.giveUp(deadlineError()), deadlineMs);
    }
    /** Stop waiting with `reason`: abort the request if it started, else when it starts. */
    giveUp(reason) {
        if (this.#settled)
            return;
        this.#reason = reason;
        if (this.#controller)
            this.#controller.abort(reason);
        else
            this.#fail(reason);
    }
    onRequestStart(controller) {
        if (this.#reason)
            controller.abort(this.#reason);
        else
            this.#controller = controller;
    }
    onResponseStart(_controller, statusCode, headers) {
        // An informational answer (1xx) is not the answer.
        if (statusCode < 200)
            return;
        this.#status = statusCode;
        this.#headers = headerRecord(headers);
    }
    onResponseData(_controller, chunk) {
        this.#chunks.push(chunk);
    }
    onResponseEnd() {
        if (!this.#end())
            return;
        const bytes = this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks);
        this.#resolve(new ResponseContext(this.#status, this.#headers, new SelfDecodingBody(Promise.resolve(bytes))));
    }
    onResponseError(_controller, err) {
        this.#fail(err);
    }
    #fail(err) {
        if (this.#end())
            this.#reject(err);
    }
    /** Marks the request settled; false when it already was. */
    #end() {
        if (this.#settled)
            return false;
        this.#settled = true;
        clearTimeout(this.#timer);
        this.#signal?.removeEventListener('abort', this.#onAbort);
        return true;
    }
}
/** One request of the library's shape, answered whole, given up after `deadlineMs` when set. */
export function sendRequest(context, deadlineMs) {
    return new Promise((resolve, reject) => {
        const signal = context.getSignal();
        if (signal?.aborted) {
            reject(signal.reason ?? new errors.RequestAbortedError());
            return;
        }
        const url = new URL(context.getUrl());
        const body = context.getBody();
        const dispatcher = context.getDispatcher() ?? getGlobalDispatcher();
        const handler = new WholeAnswer(resolve, reject, signal, deadlineMs);
        try {
            dispatcher.dispatch({
                origin: url.origin,
                path: `${url.pathname}${url.search}`,
                method: context.getHttpMethod().toString(),
                headers: context.getHeaders(),
                body: body ?? null,
            }, handler);
        }
        catch (err) {
            handler.onResponseError(null, err);
        }
    });
}
/** The library to pass as `httpApi`: every request given up after `deadlineMs`. */
export function undiciRequestLibrary(deadlineMs) {
    return wrapHttpLibrary({ send: (context) => sendRequest(context, deadlineMs) });
}
//# sourceMappingURL=http-library.js.map
import { fromKube } from './kube-errors.js';
import { ClientNodeListWatch, watchStatus } from './list-watch.js';
import { backendError, forbidden, unauthenticated } from '../core/errors.js';
/** A watch's end as the waiter sees it: the status, and the error in the service's words. */
export function watchFailure(err, what) {
    const status = watchStatus(err);
    const message = err instanceof Error ? err.message : String(err);
    if (status === 401) {
        return { status, error: unauthenticated(`${what}: the API server refused the caller's token (401)`, err) };
    }
    if (status === 403) {
        return { status,
            error: forbidden(`${what}: the identity may not watch this resource (403); grant the watch verb on it`, err) };
    }
    return { status, error: backendError(`${what}: ${message}`, err) };
}
export class ClientNodeWatches {
    apis;
    inner;
    constructor(kc, apis) {
        this.apis = apis;
        this.inner = new ClientNodeListWatch(kc, apis);
    }
    async list(gvr, namespace, selectors) {
        try {
            return await this.inner.list(gvr, namespace, selectors);
        }
        catch (err) {
            throw fromKube(err, `list ${gvr.resource} in ${namespace}`, this.apis.requestTimeoutMs);
        }
    }
    async watch(gvr, namespace, selectors, resourceVersion, handlers) {
        const what = `watch ${gvr.resource} in ${namespace}`;
        try {
            return await this.inner.watch(gvr, namespace, selectors, resourceVersion, {
                onEvent: (type, object) => handlers.onEvent(type, object),
                onEnd: (err) => handlers.onEnd(err === undefined || err === null ? undefined : watchFailure(err, what)),
            });
        }
        catch (err) {
            // The request could not even be sent (no cluster, bad credentials): as an end, so the waiter decides.
            handlers.onEnd(watchFailure(err, what));
            return { stop() { } };
        }
    }
}
//# sourceMappingURL=watches.js.map
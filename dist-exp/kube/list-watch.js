/**
 * List and watch one resource type in one namespace as the ServiceAccount, what client-go's reflector
 * builds on: `list` gives items and the resourceVersion to resume from; `watch` streams changes with
 * bookmarks and a randomized server-side timeout (5-10 minutes, so replicas do not re-watch together).
 * A stream silent past that timeout plus a margin is aborted as dead (a half-open TCP connection looks
 * quiet forever); client-node's own 30 s silence bound is set beyond ours, since bookmarks come about
 * once a minute. A 410 Gone reaches `onEnd` as `statusCode` 410, whether answered or sent as an ERROR event.
 */
import { Watch } from '@kubernetes/client-node';
import { collectionPath } from './api-clients.js';
/** An error carrying the HTTP status of a failed list or watch (410 means re-list). */
export class WatchError extends Error {
    statusCode;
    constructor(message, statusCode) {
        super(message);
        this.statusCode = statusCode;
        this.name = 'WatchError';
    }
}
/** The HTTP status of a list or watch failure, if it has one. */
export function watchStatus(err) {
    const e = err;
    if (typeof e?.statusCode === 'number')
        return e.statusCode;
    return typeof e?.code === 'number' ? e.code : undefined;
}
/** How long past the server-side timeout a silent stream is still taken as alive. */
const SILENCE_MARGIN_S = 30;
/** List and watch over @kubernetes/client-node (the ServiceAccount's KubeConfig). */
export class ClientNodeListWatch {
    apis;
    watcher;
    timeoutRange;
    constructor(kc, apis, options = {}) {
        this.apis = apis;
        this.watcher = new Watch(kc);
        this.timeoutRange = options.watchTimeoutSeconds ?? [300, 600];
        // `requestTimeoutMs` is private in the library's typings and has no setter or
        // constructor option (2.0.x); it is a plain field at run time. list-watch.test.ts
        // fails if an upgrade stops honouring it.
        this.watcher.requestTimeoutMs =
            (this.timeoutRange[1] + SILENCE_MARGIN_S + 30) * 1000;
    }
    async list(gvr, namespace, selectors) {
        const { labelSelector, fieldSelector } = selectors;
        const { group, version, kind } = gvr;
        const list = (await this.apis.listObjects(gvr, namespace, { labelSelector, fieldSelector }));
        const apiVersion = group ? `${group}/${version}` : version;
        const items = (list.items ?? []).map((item) => {
            const obj = item;
            obj.apiVersion ??= apiVersion;
            obj.kind ??= kind;
            return obj;
        });
        return { items, resourceVersion: list.metadata?.resourceVersion ?? '' };
    }
    async watch(gvr, namespace, selectors, resourceVersion, handlers) {
        const [low, high] = this.timeoutRange;
        const timeoutSeconds = Math.round(low + Math.random() * Math.max(0, high - low));
        let ended = false;
        let stopped = false;
        let silence;
        let controller = undefined;
        const end = (err) => {
            if (ended)
                return;
            ended = true;
            clearTimeout(silence);
            controller?.abort();
            handlers.onEnd(stopped ? undefined : err);
        };
        // Any line (event or bookmark) proves the stream alive; silence past the server's
        // own timeout plus a margin means the connection is dead.
        const alive = () => {
            clearTimeout(silence);
            silence = setTimeout(() => end(new WatchError(`watch ${gvr.resource}: no data for ${timeoutSeconds + SILENCE_MARGIN_S}s`, undefined)), (timeoutSeconds + SILENCE_MARGIN_S) * 1000);
            silence.unref();
        };
        alive();
        controller = await this.watcher.watch(collectionPath(gvr, namespace), {
            resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds,
            labelSelector: selectors.labelSelector,
            fieldSelector: selectors.fieldSelector,
        }, (type, object) => {
            if (ended)
                return;
            alive();
            if (type === 'ERROR') {
                const status = object;
                end(new WatchError(`watch ${gvr.resource}: ${String(status.message ?? 'error event')}`, typeof status.code === 'number' ? status.code : undefined));
                return;
            }
            if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
                handlers.onEvent(type, object);
            }
        }, (err) => end(err ?? undefined));
        if (ended)
            controller.abort();
        return {
            stop() {
                stopped = true;
                end();
            },
        };
    }
}
//# sourceMappingURL=list-watch.js.map
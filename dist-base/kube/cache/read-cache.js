import { AGENT_LABEL } from '../../core/revisions/revision-record.js';
import { compareRv, Feed } from './feed.js';
import { answersGets, listFilter } from './query.js';
const typeKey = (gvr) => `${gvr.group}/${gvr.resource}`;
const PENDING_TTL_MS = 60_000;
/** The calls of one store. The resource type is a parameter here, so each store's access can be read from its call
 * below. */
function feedOf(source, gvr, namespace, selectors = {}) {
    return {
        spec: { gvr, namespace, ...selectors },
        calls: {
            list: () => source.list(gvr, namespace, selectors),
            watch: (resourceVersion, handlers) => source.watch(gvr, namespace, selectors, resourceVersion, handlers),
        },
    };
}
/**
 * The stores of one namespace: every type the reads use, pods only with a `kagent` label,
 * events only Warnings, ControllerRevisions only agent-manager's (those labelled with an
 * agent: Deployments and StatefulSets keep theirs in the same namespaces).
 */
export function feedsOf(source, types, namespace) {
    return [
        feedOf(source, types.agent, namespace),
        feedOf(source, types.helmRelease, namespace),
        feedOf(source, types.ociRepository, namespace),
        feedOf(source, types.modelConfig, namespace),
        feedOf(source, types.deployment, namespace),
        feedOf(source, types.pod, namespace, { labelSelector: 'kagent' }),
        feedOf(source, types.event, namespace, { fieldSelector: 'type=Warning' }),
        feedOf(source, types.controllerRevision, namespace, { labelSelector: AGENT_LABEL }),
    ];
}
export class ReadCache {
    feeds = new Map();
    pending = new Map();
    readYourWritesMs;
    lastWarnAt = -Infinity;
    /** Reads answered, by source (for the metrics). */
    reads = { cache: 0, api: 0 };
    constructor(options) {
        this.readYourWritesMs = options.readYourWritesMs ?? 2_000;
        const kinds = options.kinds?.map((k) => typeKey(options.types[k]));
        for (const namespace of options.namespaces) {
            for (const { spec, calls } of feedsOf(options.source, options.types, namespace)) {
                if (kinds && !kinds.includes(typeKey(spec.gvr)))
                    continue;
                const log = options.log.child({ component: 'read-cache', resource: spec.gvr.resource, namespace });
                const feed = new Feed(spec, calls, {
                    staleAfterMs: options.staleAfterMs ?? 10_000,
                    maxObjects: options.maxObjectsPerFeed ?? 20_000,
                    onChange: (what, detail) => this.report(log, what, detail),
                });
                const key = `${typeKey(spec.gvr)}@${namespace}`;
                this.feeds.set(key, [...(this.feeds.get(key) ?? []), feed]);
            }
        }
    }
    start() {
        for (const feed of this.allFeeds())
            feed.start();
    }
    stop() {
        for (const feed of this.allFeeds())
            feed.stop();
    }
    /** Resolves once every store has listed, or after `timeoutMs` (startup warm-up; reads go direct meanwhile). */
    async synced(timeoutMs) {
        const results = await Promise.all(this.allFeeds().map((feed) => feed.waitFor(() => feed.state() !== 'syncing', timeoutMs)));
        return results.every(Boolean);
    }
    /** The store that answers a get, when it may answer now (after any wait for this replica's writes). */
    async forGet(gvr, namespace) {
        const feed = this.feedsOf(gvr, namespace).find((f) => answersGets(f.spec));
        return feed && (await this.usable(feed, gvr, namespace)) ? feed : undefined;
    }
    /** The store and filter that answer a list, when they may answer now. */
    async forList(gvr, namespace, options) {
        for (const feed of this.feedsOf(gvr, namespace)) {
            const filter = listFilter(feed.spec, options);
            if (filter === undefined)
                continue;
            return (await this.usable(feed, gvr, namespace)) ? { feed, filter } : undefined;
        }
        return undefined;
    }
    /** Remember a write of this replica; `rv` undefined means the object was deleted. */
    noteWrite(gvr, namespace, name, rv) {
        const key = `${typeKey(gvr)}@${namespace}`;
        if (!this.feeds.has(key))
            return;
        let writes = this.pending.get(key);
        if (!writes)
            this.pending.set(key, (writes = new Map()));
        writes.set(name, { rv, deleted: rv === undefined, at: Date.now() });
    }
    status() {
        const feeds = { syncing: 0, synced: 0, stale: 0, overflow: 0 };
        let objects = 0;
        let relists = 0;
        for (const feed of this.allFeeds()) {
            feeds[feed.state()]++;
            objects += feed.size;
            relists += feed.relists;
        }
        const state = feeds.stale + feeds.overflow > 0 ? 'degraded' : feeds.syncing > 0 ? 'syncing' : 'ready';
        return { enabled: true, state, feeds, objects, relists };
    }
    /**
     * A store's change of health. Failures warn once a minute across all stores (an API
     * server that is down would otherwise log one line per type and namespace), else debug.
     */
    report(log, what, detail = {}) {
        if (what === 'synced')
            return log.debug(detail, what);
        const now = Date.now();
        if (now - this.lastWarnAt < 60_000)
            return log.debug(detail, what);
        this.lastWarnAt = now;
        log.warn({ ...detail, note: 'reads of this store go to the API server until it recovers' }, what);
    }
    /** Objects held and whether every store of it answers, per resource (all namespaces together). */
    byResource() {
        const out = new Map();
        for (const feed of this.allFeeds()) {
            const resource = feed.spec.gvr.resource;
            const entry = out.get(resource) ?? { resource, objects: 0, synced: true };
            entry.objects += feed.size;
            entry.synced &&= feed.fresh();
            out.set(resource, entry);
        }
        return [...out.values()];
    }
    feedsOf(gvr, namespace) {
        return this.feeds.get(`${typeKey(gvr)}@${namespace}`) ?? [];
    }
    allFeeds() {
        return [...this.feeds.values()].flat();
    }
    /** Fresh, and past every pending write of its type and namespace (waiting for that, bounded). */
    async usable(feed, gvr, namespace) {
        if (!feed.fresh())
            return false;
        const writes = this.pending.get(`${typeKey(gvr)}@${namespace}`);
        if (!writes || writes.size === 0)
            return true;
        const caughtUp = () => {
            const now = Date.now();
            for (const [name, write] of writes) {
                if (passed(feed, name, write) || now - write.at > PENDING_TTL_MS)
                    writes.delete(name);
            }
            return writes.size === 0;
        };
        return (await feed.waitFor(caughtUp, this.readYourWritesMs)) && feed.fresh();
    }
}
/** Whether a store has seen a write: its object is that version or newer, or is gone after a delete. */
function passed(feed, name, write) {
    const current = feed.get(name);
    if (write.deleted)
        return current === undefined || Boolean(current.metadata.deletionTimestamp);
    const rv = write.rv ?? '';
    if (current?.metadata.resourceVersion === rv)
        return true;
    const order = compareRv(feed.resourceVersion, rv);
    return order !== undefined && order >= 0;
}
//# sourceMappingURL=read-cache.js.map
/** A port whose writes go through `inner` and are told to the cache. */
class WriteNotingPort {
    inner;
    cache;
    constructor(inner, cache) {
        this.inner = inner;
        this.cache = cache;
    }
    get(gvr, namespace, name) {
        return this.inner.get(gvr, namespace, name);
    }
    list(gvr, namespace, options) {
        return this.inner.list(gvr, namespace, options);
    }
    async create(gvr, object, options) {
        const created = await this.inner.create(gvr, object, options);
        if (!options?.dryRun)
            this.noteWritten(gvr, created);
        return created;
    }
    async replace(gvr, object, options) {
        const replaced = await this.inner.replace(gvr, object, options);
        if (!options?.dryRun)
            this.noteWritten(gvr, replaced);
        return replaced;
    }
    async remove(gvr, namespace, name, options) {
        const removed = await this.inner.remove(gvr, namespace, name, options);
        if (!options?.dryRun)
            this.cache.noteWrite(gvr, namespace, name, undefined);
        return removed;
    }
    noteWritten(gvr, object) {
        const { namespace, name, resourceVersion } = object.metadata;
        if (namespace)
            this.cache.noteWrite(gvr, namespace, name, resourceVersion ?? '');
    }
}
/** Reads from the cache when it may answer (and the caller may read), else through `inner`. */
class CachedReadPort extends WriteNotingPort {
    allowed;
    constructor(inner, cache, allowed) {
        super(inner, cache);
        this.allowed = allowed;
    }
    /**
     * A hit is answered from the cache; a miss is not trusted and asks the API server. The
     * cache knows this replica's writes, but another replica's create reaches it only through
     * the watch, some milliseconds later: a client that creates an agent through one replica
     * and reads it back through another (two pods behind a Service) would get a 404 for an
     * agent that exists. A miss costs what the read cost without a cache; a hit, which is
     * what warm reads of existing agents are, stays free.
     */
    async get(gvr, namespace, name) {
        const feed = await this.cache.forGet(gvr, namespace);
        if (feed && (await this.mayRead('get', gvr, namespace))) {
            const found = feed.get(name);
            if (found !== undefined) {
                this.cache.reads.cache++;
                return found;
            }
        }
        this.cache.reads.api++;
        return this.inner.get(gvr, namespace, name);
    }
    async list(gvr, namespace, options) {
        const found = await this.cache.forList(gvr, namespace, options);
        if (found && (await this.mayRead('list', gvr, namespace))) {
            this.cache.reads.cache++;
            // The store's own frozen array when unfiltered: readers only map over it.
            const items = found.feed.items();
            return (found.filter ? items.filter(found.filter) : items);
        }
        this.cache.reads.api++;
        return this.inner.list(gvr, namespace, options);
    }
    async mayRead(verb, gvr, namespace) {
        if (!this.allowed)
            return true;
        try {
            return await this.allowed({ verb, group: gvr.group, resource: gvr.resource, namespace });
        }
        catch {
            return false;
        }
    }
}
/** A KubeProvider with the read cache in front of `inner`'s reads. */
export class CachedKubeProvider {
    inner;
    cache;
    authorize;
    identity;
    shared;
    constructor(inner, cache, authorize) {
        this.inner = inner;
        this.cache = cache;
        this.authorize = authorize;
        this.identity = inner.identity;
    }
    forRequest(ctx) {
        if (this.identity === 'serviceAccount')
            return this.serviceAccountPorts(ctx).writes;
        return new WriteNotingPort(this.inner.forRequest(ctx), this.cache);
    }
    forReads(ctx) {
        if (this.identity === 'serviceAccount')
            return this.serviceAccountPorts(ctx).reads;
        const direct = this.inner.forRequest(ctx);
        const authorize = this.authorize;
        if (!authorize)
            return new WriteNotingPort(direct, this.cache);
        return new CachedReadPort(direct, this.cache, (attributes) => authorize(ctx, attributes));
    }
    /** Watches go to the API server as the request's identity: the cache holds the ServiceAccount's view. */
    forWatches(ctx) {
        if (!this.inner.forWatches)
            throw new Error('the provider behind the read cache offers no watches');
        return this.inner.forWatches(ctx);
    }
    /** The ServiceAccount is one client for every request: its two ports are built once, not per request. */
    serviceAccountPorts(ctx) {
        if (!this.shared) {
            const direct = this.inner.forRequest(ctx);
            this.shared = { writes: new WriteNotingPort(direct, this.cache), reads: new CachedReadPort(direct, this.cache) };
        }
        return this.shared;
    }
}
//# sourceMappingURL=cached-provider.js.map
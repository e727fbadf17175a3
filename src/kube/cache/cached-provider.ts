/**
 * The read cache behind the KubeProvider port, invisible to the service: `forRequest` is the direct
 * client (writes, and the reads writes depend on) noting writes for read-your-writes; `forReads` answers
 * from the cache when it may. The cache is filled as the ServiceAccount, so with the caller's identity
 * each cached read is first authorized as the caller (access-review.ts); anything not allowed goes to
 * the API server with the caller's token, so the answer, or the 403, is the one it would give uncached.
 */
import type { RequestContext } from '../../identity/caller.js';
import type { Gvr, KubeObject, KubePort, KubeProvider, ListOptions, WatchPort,
  WriteCallOptions, GetOptions } from '../../service/ports.js';
import type { ReadAttributes, ReadAuthorizer } from './cache-ports.js';
import type { ReadCache } from './read-cache.js';

/** A port whose writes go through `inner` and are told to the cache. */
class WriteNotingPort implements KubePort {
  constructor(protected readonly inner: KubePort, protected readonly cache: ReadCache) {}

  get(gvr: Gvr, namespace: string, name: string, _options?: GetOptions): Promise<KubeObject | undefined> {
    return this.inner.get(gvr, namespace, name);
  }

  list(gvr: Gvr, namespace: string, options?: ListOptions): Promise<KubeObject[]> {
    return this.inner.list(gvr, namespace, options);
  }

  async create(gvr: Gvr, object: KubeObject, options?: WriteCallOptions): Promise<KubeObject> {
    const created = await this.inner.create(gvr, object, options);
    if (!options?.dryRun) this.noteWritten(gvr, created);
    return created;
  }

  async replace(gvr: Gvr, object: KubeObject, options?: WriteCallOptions): Promise<KubeObject> {
    const replaced = await this.inner.replace(gvr, object, options);
    if (!options?.dryRun) this.noteWritten(gvr, replaced);
    return replaced;
  }

  async remove(
    gvr: Gvr, namespace: string, name: string, options?: WriteCallOptions & { resourceVersion?: string },
  ): Promise<boolean> {
    const removed = await this.inner.remove(gvr, namespace, name, options);
    if (!options?.dryRun) this.cache.noteWrite(gvr, namespace, name, undefined);
    return removed;
  }

  private noteWritten(gvr: Gvr, object: KubeObject): void {
    const { namespace, name, resourceVersion } = object.metadata;
    if (namespace) this.cache.noteWrite(gvr, namespace, name, resourceVersion ?? '');
  }
}

/** Reads from the cache when it may answer (and the caller may read), else through `inner`. */
class CachedReadPort extends WriteNotingPort {
  constructor(
    inner: KubePort, cache: ReadCache, private readonly allowed?: (attributes: ReadAttributes) => Promise<boolean>,
  ) {
    super(inner, cache);
  }

  /**
   * A hit is answered from the cache; a miss is not trusted and asks the API server. The
   * cache knows this replica's writes, but another replica's create reaches it only through
   * the watch, some milliseconds later: a client that creates an agent through one replica
   * and reads it back through another (two pods behind a Service) would get a 404 for an
   * agent that exists. A miss costs what the read cost without a cache; a hit, which is
   * what warm reads of existing agents are, stays free.
   */
  override async get(gvr: Gvr, namespace: string, name: string, options?: GetOptions):
  Promise<KubeObject | undefined> {
    const feed = await this.cache.forGet(gvr, namespace);
    const may = feed ? await this.mayRead('get', gvr, namespace) : false;
    if (feed && !may && options?.onChance) return undefined;
    if (feed && may) {
      const found = feed.get(name);
      if (found !== undefined || options?.onChance) {
        this.cache.reads.cache++;
        return found;
      }
    }
    this.cache.reads.api++;
    return this.inner.get(gvr, namespace, name);
  }

  override async list(gvr: Gvr, namespace: string, options?: ListOptions): Promise<KubeObject[]> {
    const found = await this.cache.forList(gvr, namespace, options);
    const may = found ? await this.mayRead('list', gvr, namespace) : false;
    if (found && !may && options?.onChance) return [];
    if (found && may) {
      this.cache.reads.cache++;
      const items = found.feed.items();
      // safe: the store's own frozen array when unfiltered, typed readonly by the store; readers only map over it.
      return (found.filter ? items.filter(found.filter) : items) as KubeObject[];
    }
    this.cache.reads.api++;
    return this.inner.list(gvr, namespace, options);
  }

  private async mayRead(verb: ReadAttributes['verb'], gvr: Gvr, namespace: string): Promise<boolean> {
    if (!this.allowed) return true;
    try {
      return await this.allowed({ verb, group: gvr.group, resource: gvr.resource, namespace });
    } catch {
      return false;
    }
  }
}

/** A KubeProvider with the read cache in front of `inner`'s reads. */
export class CachedKubeProvider implements KubeProvider {
  readonly identity: KubeProvider['identity'];
  private shared?: { writes: KubePort; reads: KubePort };

  constructor(
    private readonly inner: KubeProvider, private readonly cache: ReadCache,
    private readonly authorize?: ReadAuthorizer,
  ) {
    this.identity = inner.identity;
  }

  forRequest(ctx: RequestContext): KubePort {
    if (this.identity === 'serviceAccount') return this.serviceAccountPorts(ctx).writes;
    return new WriteNotingPort(this.inner.forRequest(ctx), this.cache);
  }

  forReads(ctx: RequestContext): KubePort {
    if (this.identity === 'serviceAccount') return this.serviceAccountPorts(ctx).reads;
    const direct = this.inner.forRequest(ctx);
    const authorize = this.authorize;
    if (!authorize) return new WriteNotingPort(direct, this.cache);
    return new CachedReadPort(direct, this.cache, (attributes) => authorize(ctx, attributes));
  }

  /** Watches go to the API server as the request's identity: the cache holds the ServiceAccount's view. */
  forWatches(ctx: RequestContext): WatchPort {
    if (!this.inner.forWatches) throw new Error('the provider behind the read cache offers no watches');
    return this.inner.forWatches(ctx);
  }

  /** The ServiceAccount is one client for every request: its two ports are built once, not per request. */
  private serviceAccountPorts(ctx: RequestContext): { writes: KubePort; reads: KubePort } {
    if (!this.shared) {
      const direct = this.inner.forRequest(ctx);
      this.shared = { writes: new WriteNotingPort(direct, this.cache), reads: new CachedReadPort(direct, this.cache) };
    }
    return this.shared;
  }
}

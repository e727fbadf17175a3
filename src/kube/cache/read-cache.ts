/**
 * The watch-fed read cache of the managed namespaces: a Feed per resource type and namespace, as the
 * ServiceAccount. Read-your-writes: this replica's writes are remembered until their store has passed
 * them, and a read waits up to `readYourWritesMs` for that, else goes to the API server; other replicas'
 * writes arrive through the watch, so the cache never holds state the API server does not. Correctness
 * under watch loss is each Feed's; this class adds `get_info`'s summary and the metrics.
 */
import type { Logger } from 'pino';
import { AGENT_LABEL } from '../../core/revisions/revision-record.js';
import type { Gvr, KubeObject, ListOptions } from '../../service/ports.js';
import type { ResourceTypes } from '../../service/resources.js';
import { compareRv, Feed, type FeedCalls, type FeedState } from './feed.js';
import type { FeedSpec, ListWatchSource, Selectors } from './cache-ports.js';
import { answersGets, listFilter } from './query.js';

export interface ReadCacheOptions {
  namespaces: readonly string[];
  types: ResourceTypes;
  source: ListWatchSource;
  log: Logger;
  /** How long a store may have no open watch before readers stop trusting it (default 10 s). */
  staleAfterMs?: number;
  /** How long a read waits for the store to pass this replica's own write (default 2 s). */
  readYourWritesMs?: number;
  /** Most objects one store holds before it stops serving (default 20,000). */
  maxObjectsPerFeed?: number;
  /** Only the stores of these types (a workload cluster holds no Flux or revision objects); default: every type. */
  kinds?: readonly (keyof ResourceTypes)[];
}

/** What get_info reports about the cache. */
export interface ReadCacheStatus {
  enabled: true;
  /** `ready`: every store answers; `syncing`: some have not listed yet; `degraded`: some are stale or too large. */
  state: 'syncing' | 'ready' | 'degraded';
  feeds: Record<FeedState, number>;
  objects: number;
  relists: number;
}

interface PendingWrite {
  rv?: string;
  deleted: boolean;
  at: number;
}

/** Where a read was answered from, and why not from the cache. */
export type ReadSource = 'cache' | 'api';

const typeKey = (gvr: Gvr): string => `${gvr.group}/${gvr.resource}`;
const PENDING_TTL_MS = 60_000;

/** The calls of one store. The resource type is a parameter here, so each store's access can be read from its call
 * below. */
function feedOf(
  source: ListWatchSource, gvr: Gvr, namespace: string, selectors: Selectors = {},
): { spec: FeedSpec; calls: FeedCalls } {
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
export function feedsOf(
  source: ListWatchSource, types: ResourceTypes, namespace: string,
): { spec: FeedSpec; calls: FeedCalls }[] {
  return [
    feedOf(source, types.agent, namespace),
    feedOf(source, types.helmRelease, namespace),
    feedOf(source, types.ociRepository, namespace),
    feedOf(source, types.modelConfig, namespace),
    feedOf(source, types.deployment, namespace),
    feedOf(source, types.pod, namespace, { labelSelector: 'kagent' }),
    feedOf(source, types.event, namespace, { fieldSelector: 'type=Warning' }),
    feedOf(source, types.controllerRevision, namespace, { labelSelector: AGENT_LABEL }),
    // Chart 2.x's Agents, Harnesses and ModelConfigs, where the cluster serves api.kagent.dev.
    ...(types.agentV2 ? [feedOf(source, types.agentV2, namespace)] : []),
    ...(types.harness ? [feedOf(source, types.harness, namespace)] : []),
    ...(types.modelConfigV2 ? [feedOf(source, types.modelConfigV2, namespace)] : []),
  ];
}

export class ReadCache {
  private readonly feeds = new Map<string, Feed[]>();
  private readonly pending = new Map<string, Map<string, PendingWrite>>();
  private readonly readYourWritesMs: number;
  private lastWarnAt = -Infinity;
  /** Reads answered, by source (for the metrics). */
  readonly reads: Record<ReadSource, number> = { cache: 0, api: 0 };

  constructor(options: ReadCacheOptions) {
    this.readYourWritesMs = options.readYourWritesMs ?? 2_000;
    const kinds = options.kinds?.flatMap((k) => {
      const gvr = options.types[k];
      return gvr ? [typeKey(gvr)] : [];
    });
    for (const namespace of options.namespaces) {
      for (const { spec, calls } of feedsOf(options.source, options.types, namespace)) {
        if (kinds && !kinds.includes(typeKey(spec.gvr))) continue;
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

  start(): void {
    for (const feed of this.allFeeds()) feed.start();
  }

  stop(): void {
    for (const feed of this.allFeeds()) feed.stop();
  }

  /** Resolves once every store has listed, or after `timeoutMs` (startup warm-up; reads go direct meanwhile). */
  async synced(timeoutMs: number): Promise<boolean> {
    const results = await Promise.all(this.allFeeds().map((feed) =>
      feed.waitFor(() => feed.state() !== 'syncing', timeoutMs)));
    return results.every(Boolean);
  }

  /** The store that answers a get, when it may answer now (after any wait for this replica's writes). */
  async forGet(gvr: Gvr, namespace: string): Promise<Feed | undefined> {
    const feed = this.feedsOf(gvr, namespace).find((f) => answersGets(f.spec));
    return feed && (await this.usable(feed, gvr, namespace)) ? feed : undefined;
  }

  /** The store and filter that answer a list, when they may answer now. */
  async forList(
    gvr: Gvr, namespace: string, options?: ListOptions,
  ): Promise<{ feed: Feed; filter: ((o: KubeObject) => boolean) | null } | undefined> {
    for (const feed of this.feedsOf(gvr, namespace)) {
      const filter = listFilter(feed.spec, options);
      if (filter === undefined) continue;
      return (await this.usable(feed, gvr, namespace)) ? { feed, filter } : undefined;
    }
    return undefined;
  }

  /** Remember a write of this replica; `rv` undefined means the object was deleted. */
  noteWrite(gvr: Gvr, namespace: string, name: string, rv: string | undefined): void {
    const key = `${typeKey(gvr)}@${namespace}`;
    if (!this.feeds.has(key)) return;
    let writes = this.pending.get(key);
    if (!writes) this.pending.set(key, (writes = new Map()));
    writes.set(name, { rv, deleted: rv === undefined, at: Date.now() });
  }

  status(): ReadCacheStatus {
    const feeds: Record<FeedState, number> = { syncing: 0, synced: 0, stale: 0, overflow: 0 };
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
  private report(log: Logger, what: string, detail: Record<string, unknown> = {}): void {
    if (what === 'synced') return log.debug(detail, what);
    const now = Date.now();
    if (now - this.lastWarnAt < 60_000) return log.debug(detail, what);
    this.lastWarnAt = now;
    log.warn({ ...detail, note: 'reads of this store go to the API server until it recovers' }, what);
  }

  /** Objects held and whether every store of it answers, per resource (all namespaces together). */
  byResource(): { resource: string; objects: number; synced: boolean }[] {
    const out = new Map<string, { resource: string; objects: number; synced: boolean }>();
    for (const feed of this.allFeeds()) {
      const resource = feed.spec.gvr.resource;
      const entry = out.get(resource) ?? { resource, objects: 0, synced: true };
      entry.objects += feed.size;
      entry.synced &&= feed.fresh();
      out.set(resource, entry);
    }
    return [...out.values()];
  }

  private feedsOf(gvr: Gvr, namespace: string): readonly Feed[] {
    return this.feeds.get(`${typeKey(gvr)}@${namespace}`) ?? [];
  }

  private allFeeds(): Feed[] {
    return [...this.feeds.values()].flat();
  }

  /** Fresh, and past every pending write of its type and namespace (waiting for that, bounded). */
  private async usable(feed: Feed, gvr: Gvr, namespace: string): Promise<boolean> {
    if (!feed.fresh()) return false;
    const writes = this.pending.get(`${typeKey(gvr)}@${namespace}`);
    if (!writes || writes.size === 0) return true;
    const caughtUp = (): boolean => {
      const now = Date.now();
      for (const [name, write] of writes) {
        if (passed(feed, name, write) || now - write.at > PENDING_TTL_MS) writes.delete(name);
      }
      return writes.size === 0;
    };
    return (await feed.waitFor(caughtUp, this.readYourWritesMs)) && feed.fresh();
  }
}

/** Whether a store has seen a write: its object is that version or newer, or is gone after a delete. */
function passed(feed: Feed, name: string, write: PendingWrite): boolean {
  const current = feed.get(name);
  if (write.deleted) return current === undefined || Boolean(current.metadata.deletionTimestamp);
  const rv = write.rv ?? '';
  if (current?.metadata.resourceVersion === rv) return true;
  const order = compareRv(feed.resourceVersion, rv);
  return order !== undefined && order >= 0;
}

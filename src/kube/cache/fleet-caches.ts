/**
 * The read caches of the workload clusters, started lazily: a cluster's stores start on its
 * first cached read and stop after `quietMs` (default 10 minutes) without one, and at most
 * `max` clusters' stores run at once (the least recently read is stopped first). A stopped
 * cluster is read from its API server until its next read starts its stores again; reads
 * are never refused for want of a cache. The clusters' clients drop a cluster whose
 * kubeconfig Secret changed, so no store outlives the credential it was filled with.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { KubeProvider } from '../../service/ports.js';
import type { ResourceTypes } from '../../service/resources.js';
import type { KubeCallHook } from '../instrumented.js';
import { openReadCache, type OpenedReadCache } from './open.js';
import type { ReadSource } from './read-cache.js';

export const DEFAULT_QUIET_MS = 10 * 60_000;

/** Why a cluster's stores stopped. */
export type ClusterStopReason = 'quiet' | 'evicted' | 'kubeconfig changed' | 'closed';

export interface ClusterReadCachesOptions {
  /** Most clusters whose stores run at once (`--read-cache-clusters`); 0 caches none. */
  max: number;
  quietMs?: number;
  /** The clock the quiet period is measured with (tests inject one). */
  now?: () => number;
  log: Logger;
}

interface Live {
  opened: OpenedReadCache;
  lastRead: number;
}

export class ClusterReadCaches {
  /** Insertion order is recency: a read moves its cluster to the end. */
  private readonly live = new Map<string, Live>();
  private readonly quietMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** Reads of the clusters stopped since, by source (the live ones count in their own caches). */
  private readonly pastReads: Record<ReadSource, number> = { cache: 0, api: 0 };
  /** Clusters started, and stopped by reason, since this service started (for the metrics). */
  starts = 0;
  readonly stops: Record<ClusterStopReason, number> = { quiet: 0, evicted: 0, 'kubeconfig changed': 0, closed: 0 };

  constructor(private readonly options: ClusterReadCachesOptions) {
    this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
    this.now = options.now ?? Date.now;
  }

  get max(): number {
    return this.options.max;
  }

  /** The running cache of cluster `key`, started with `open` when it has none; undefined when `max` is 0. */
  use(key: string, open: () => OpenedReadCache): OpenedReadCache | undefined {
    if (this.options.max <= 0) return undefined;
    let entry = this.live.get(key);
    if (entry) this.live.delete(key);
    else {
      entry = { opened: open(), lastRead: 0 };
      this.starts++;
      this.options.log.info({ cluster: key, live: this.live.size + 1 }, 'workload read cache started');
    }
    entry.lastRead = this.now();
    this.live.set(key, entry);
    for (const oldest of this.live.keys()) {
      if (this.live.size <= this.options.max) break;
      this.stop(oldest, 'evicted');
    }
    this.schedule();
    return entry.opened;
  }

  /** Stop cluster `key`'s stores, when they run. */
  drop(key: string, reason: ClusterStopReason): void {
    if (this.live.has(key)) this.stop(key, reason);
  }

  /** Stop every cluster not read for the quiet period (run by a timer; tests call it). */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.live) if (now - entry.lastRead >= this.quietMs) this.stop(key, 'quiet');
  }

  /** The clusters whose stores run, least recently read first. */
  clusters(): string[] {
    return [...this.live.keys()];
  }

  /** Reads of every workload cluster's cache, by source, stopped ones included. */
  reads(): Record<ReadSource, number> {
    const total = { ...this.pastReads };
    for (const { opened } of this.live.values()) {
      total.cache += opened.cache.reads.cache;
      total.api += opened.cache.reads.api;
    }
    return total;
  }

  close(): void {
    for (const key of [...this.live.keys()]) this.stop(key, 'closed');
  }

  private stop(key: string, reason: ClusterStopReason): void {
    const entry = this.live.get(key)!;
    this.live.delete(key);
    entry.opened.close();
    this.pastReads.cache += entry.opened.cache.reads.cache;
    this.pastReads.api += entry.opened.cache.reads.api;
    this.stops[reason]++;
    const log = this.options.log;
    (reason === 'closed' ? log.debug.bind(log) : log.info.bind(log))({ cluster: key, reason },
      'workload read cache stopped');
    if (this.live.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** While any cluster runs, look for quiet ones every tenth of the quiet period (at most a minute). */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), Math.max(1_000, Math.min(60_000, this.quietMs / 10)));
    this.timer.unref();
  }
}

/**
 * The workload clusters' read caches of a service: with the read cache on and a bound above 0,
 * and never with downstream OAuth, where the service presents only callers' tokens to a
 * workload cluster and has no credential of its own there to fill a cache with.
 */
export function clusterReadCaches(options: {
  readCache: boolean; max: number; identity: 'caller' | 'serviceAccount'; log: Logger;
}): ClusterReadCaches | undefined {
  if (!options.readCache || options.max <= 0 || options.identity === 'caller') return undefined;
  return new ClusterReadCaches({ max: options.max, log: options.log });
}

/** Opens the read cache of workload cluster `key` (`org/cluster`), filled through `kc`, in front of `provider`. */
export type ClusterCacheOpener = (key: string, kc: KubeConfig, provider: KubeProvider) => OpenedReadCache;

/** What a workload cluster holds of the types the reads use: no Flux objects, no revisions. */
const WORKLOAD_KINDS = [
  'agent', 'modelConfig', 'deployment', 'pod', 'event', 'agentV2', 'harness', 'modelConfigV2',
] as const;

/** The opener of the workload clusters' caches: the managed namespaces' workload-side stores. */
export function clusterCacheOpener(options: {
  namespaces: readonly string[]; types: ResourceTypes; log: Logger; hooks?: readonly KubeCallHook[];
}): ClusterCacheOpener {
  return (key, kc, provider) => openReadCache(provider, {
    cluster: kc, namespaces: options.namespaces, types: options.types, kinds: WORKLOAD_KINDS,
    log: options.log.child({ cluster: key }), hooks: options.hooks,
  });
}

/**
 * One watch-fed store (client-go's reflector and store in one small class): list, then watch from the
 * list's resourceVersion, re-watch after a normal end, re-list on 410 Gone, back off (0.2-10 s, jittered)
 * on failures. Served only after its first list and while its watch is open or down for at most
 * `staleAfterMs`; objects are frozen (a reader cannot corrupt the next answer) and kept as slim.ts trims
 * them (no `managedFields`, only what reads use); a store past `maxObjects` stops serving rather than grow
 * without bound.
 */
import { deepFreeze } from '../../core/frozen.js';
import type { KubeObject } from '../../service/ports.js';
import { watchStatus } from '../list-watch.js';
import { slim } from './slim.js';
import type { FeedSpec, WatchEventType, WatchHandle, WatchHandlers } from './cache-ports.js';

/** The list and watch of one store's type, namespace and selectors. */
export interface FeedCalls {
  list(): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  watch(resourceVersion: string, handlers: WatchHandlers): Promise<WatchHandle>;
}

export type FeedState = 'syncing' | 'synced' | 'stale' | 'overflow';

export interface FeedOptions {
  staleAfterMs: number;
  maxObjects: number;
  now?: () => number;
  /** Told once per change of health (first sync, watch lost, re-list, list failing). */
  onChange?: (what: string, detail?: Record<string, unknown>) => void;
}

const MIN_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 10_000;
const OVERFLOW_RETRY_MS = 60_000;

/** Compare two resourceVersions; undefined when they are not both decimal integers (etcd's are). */
export function compareRv(a: string, b: string): number | undefined {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

type Waiter = () => boolean;

export class Feed {
  private objects = new Map<string, KubeObject>();
  private sorted: readonly KubeObject[] | undefined;
  private rv = '';
  private listed = false;
  private connected = false;
  private overflowed = false;
  private downSince: number;
  private stopped = false;
  private handle: WatchHandle | undefined;
  private waiters = new Set<Waiter>();
  private wake: (() => void) | undefined;
  private readonly now: () => number;
  /** Completed lists after the first (410 Gone or a failed watch start). */
  relists = 0;

  constructor(readonly spec: FeedSpec, private readonly source: FeedCalls, private readonly options: FeedOptions) {
    this.now = options.now ?? Date.now;
    this.downSince = this.now();
  }

  /** The resourceVersion the store is current to. */
  get resourceVersion(): string {
    return this.rv;
  }

  get size(): number {
    return this.objects.size;
  }

  state(): FeedState {
    if (this.overflowed) return 'overflow';
    if (!this.listed) return 'syncing';
    if (!this.connected && this.now() - this.downSince > this.options.staleAfterMs) return 'stale';
    return 'synced';
  }

  /** True when readers may be answered from this store now. */
  fresh(): boolean {
    return this.state() === 'synced';
  }

  get(name: string): KubeObject | undefined {
    return this.objects.get(name);
  }

  /** Every object, sorted by name as the API server lists them; the same frozen array until a change. */
  items(): readonly KubeObject[] {
    this.sorted ??= Object.freeze([...this.objects.values()].sort((a, b) =>
      (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0)));
    return this.sorted;
  }

  /** Resolves true once `ready()` holds (checked now and after every change), false after `timeoutMs`. */
  waitFor(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = () => {
        if (!ready()) return false;
        clearTimeout(timer);
        resolve(true);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Start the list+watch loop (runs until `stop`). */
  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.handle?.stop();
    this.wake?.();
  }

  private async run(): Promise<void> {
    let needList = true;
    let failures = 0;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.relist();
          needList = false;
        }
        const err = await this.watchOnce();
        if (this.overflowed) {
          needList = true;
          continue;
        }
        if (err === undefined) {
          failures = 0;
          continue;
        }
        if (watchStatus(err) === 410) {
          needList = true;
          this.options.onChange?.('resourceVersion expired (410 Gone); re-listing', { resourceVersion: this.rv });
          continue;
        }
        throw err;
      } catch (err) {
        if (this.stopped) return;
        failures++;
        if (failures === 1) {
          this.options.onChange?.('list or watch failed; retrying', {
            status: watchStatus(err), err: err instanceof Error ? err.message : String(err),
          });
        }
        // An overflowing namespace is listed again only now and then: each try is a big LIST.
        const pause = this.overflowed
          ? OVERFLOW_RETRY_MS
          : Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** (failures - 1));
        await this.sleep(pause / 2 + Math.random() * (pause / 2));
      }
    }
  }

  private async relist(): Promise<void> {
    const { items, resourceVersion } = await this.source.list();
    if (this.stopped) return;
    if (items.length > this.options.maxObjects) {
      if (!this.overflowed) {
        this.options.onChange?.('too many objects to cache; reading directly', { objects: items.length });
      }
      this.overflowed = true;
      this.objects.clear();
      this.sorted = undefined;
      throw new Error(`${items.length} objects exceed the cache bound of ${this.options.maxObjects}`);
    }
    this.overflowed = false;
    const next = new Map<string, KubeObject>();
    for (const item of items) next.set(item.metadata.name, this.cacheable(item));
    this.objects = next;
    this.sorted = undefined;
    this.rv = resourceVersion;
    // A fresh list is as current as an open watch: the staleness clock starts again.
    if (!this.connected) this.downSince = this.now();
    if (this.listed) this.relists++;
    else this.options.onChange?.('synced', { objects: next.size });
    this.listed = true;
    this.changed();
  }

  /** One watch, until it ends; resolves with its error (undefined for a normal end). */
  private watchOnce(): Promise<unknown> {
    return new Promise<unknown>((resolve) => {
      let settled = false;
      const finish = (err?: unknown): void => {
        if (settled) return;
        settled = true;
        // Down since the open watch ended; a watch that failed to start changes nothing.
        if (this.connected) this.downSince = this.now();
        this.connected = false;
        this.handle = undefined;
        resolve(err);
      };
      this.source.watch(this.rv, {
        onEvent: (type, object) => this.apply(type, object),
        onEnd: finish,
      }).then((handle) => {
        if (settled) return;
        this.handle = handle;
        this.connected = true;
        this.changed();
        if (this.stopped) handle.stop();
      }, finish);
    });
  }

  private apply(type: WatchEventType, object: KubeObject): void {
    const rv = object.metadata?.resourceVersion;
    if (type !== 'BOOKMARK') {
      const name = object.metadata.name;
      if (type === 'DELETED') this.objects.delete(name);
      else if (this.objects.size >= this.options.maxObjects && !this.objects.has(name)) {
        this.overflowed = true;
        this.options.onChange?.('too many objects to cache; reading directly', { objects: this.objects.size + 1 });
        this.handle?.stop();
        return;
      } else this.objects.set(name, this.cacheable(object));
      this.sorted = undefined;
    }
    if (rv) this.rv = rv;
    this.changed();
  }

  /** What the store keeps of an object (slim.ts), frozen: a reader cannot corrupt the next answer. */
  private cacheable(object: KubeObject): KubeObject {
    return deepFreeze(slim(this.spec.gvr, object));
  }

  private changed(): void {
    for (const waiter of this.waiters) if (waiter()) this.waiters.delete(waiter);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

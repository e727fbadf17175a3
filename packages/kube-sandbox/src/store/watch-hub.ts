/**
 * The store's event bus: every committed change becomes one event with the resourceVersion
 * it was written at, delivered synchronously (in commit order) to subscribers — the HTTP
 * watch streams and, in-process, simulated controllers — and kept in a bounded history so
 * a watch can resume from an older resourceVersion. Once history no longer reaches back
 * far enough, a resume is `expired` (the 410 Gone of the real watch cache).
 */
import type { JsonObject } from '../api/json.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `object` is the stored (frozen) object; do not mutate it. */
export interface StoreEvent {
  readonly type: WatchEventType;
  readonly rv: number;
  /** The resource key (`pods`, `helmreleases.helm.toolkit.fluxcd.io`). */
  readonly resource: string;
  readonly namespace: string;
  readonly object: JsonObject;
  /**
   * The stored object before a MODIFIED or DELETED change (lets selector watches turn a change into
   * ADDED/DELETED, and a paged list show the state at its first page's resourceVersion).
   */
  readonly previous?: JsonObject;
}

export type StoreListener = (event: StoreEvent) => void;

export class WatchHub {
  private readonly ring: (StoreEvent | undefined)[];
  private start = 0;
  private size = 0;
  /** The resourceVersion of the newest event that fell out of history (0: none yet). */
  private compactedRv = 0;
  private readonly listeners = new Set<StoreListener>();

  constructor(readonly capacity = 10_000) {
    this.ring = new Array<StoreEvent | undefined>(capacity);
  }

  /** Record an event and hand it to every subscriber. A throwing subscriber is skipped. */
  publish(event: StoreEvent): void {
    if (this.size === this.capacity) {
      this.compactedRv = this.ring[this.start]!.rv;
      this.start = (this.start + 1) % this.capacity;
      this.size--;
    }
    this.ring[(this.start + this.size) % this.capacity] = event;
    this.size++;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A subscriber's failure must not fail the write that triggered it.
      }
    }
  }

  /** Receive every future event; returns the unsubscribe function. */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Number of live subscribers (tests, diagnostics). */
  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** The oldest resourceVersion a watch can still resume from. */
  get oldestResumableRv(): number {
    return this.compactedRv;
  }

  /** Events of `resource` written after `afterRv`, or `expired` when history no longer reaches back. */
  replay(resource: string, afterRv: number): StoreEvent[] | 'expired' {
    if (afterRv < this.compactedRv) return 'expired';
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(mid).rv <= afterRv) lo = mid + 1;
      else hi = mid;
    }
    const events: StoreEvent[] = [];
    for (let i = lo; i < this.size; i++) {
      const event = this.at(i);
      if (event.resource === resource) events.push(event);
    }
    return events;
  }

  private at(index: number): StoreEvent {
    return this.ring[(this.start + index) % this.capacity]!;
  }
}

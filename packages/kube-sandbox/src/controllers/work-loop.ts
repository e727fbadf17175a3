/**
 * The loop every simulated controller runs: store events map to keys in a delayed work queue (a burst
 * becomes one reconcile), and each key is reconciled later, never inside the write that announced it.
 * A reconcile reads the current state and converges it, so a missed or repeated event does no harm; a 409
 * or any failure requeues. Controllers write in-process under their own field manager, neither counted
 * nor authorized, like a real cluster's controllers on their own service account.
 */
import { isObject, type JsonObject } from '../api/json.js';
import { StatusError } from '../api/status.js';
import type { SandboxStore, ResourceRef } from '../ops/sandbox-store.js';
import { resourceKey } from '../resources/resource-def.js';
import type { StoreEvent, StoreListener } from '../store/watch-hub.js';

/** The log a controller reports failures to. */
export interface ControllerLog {
  debug(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What every controller is started with. */
export interface ControllerContext {
  readonly store: SandboxStore;
  /** How long a change waits before it is reconciled (ms). */
  readonly delayMs: number;
  readonly log?: ControllerLog;
}

/** One reconcile: converge `namespace/name`; return a delay (ms) to look again later. */
export type Reconcile = (namespace: string, name: string) => number | void;

/** Maps a store event to the keys to reconcile (`[namespace, name]`). */
export type EventMapper = (event: StoreEvent) => Iterable<readonly [string, string]>;

const RETRY_MS = 1_000;

/** The key of an event's own object. */
export const sameObject: EventMapper = (event) => {
  const meta = isObject(event.object.metadata) ? event.object.metadata : {};
  return [[String(meta.namespace ?? ''), String(meta.name ?? '')]];
};

/** Which of a controller's reconciles a hold keeps back: these objects only, or every one. */
export type HeldObjects = (namespace: string, name: string) => boolean;

/** One controller's queue and subscriptions. */
export class Controller {
  private readonly due = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly holds = new Set<HeldObjects>();
  /** Reconciles that came due while held, run when no hold keeps them back any more. */
  private readonly heldKeys = new Map<string, readonly [string, string]>();
  private stopped = false;

  constructor(readonly name: string, private readonly ctx: ControllerContext, private readonly reconcile: Reconcile) {}

  /** Reconcile what `map` names whenever `resource` changes. */
  watch(resource: ResourceRef, map: EventMapper = sameObject): this {
    const key = resourceKey(this.ctx.store.resource(resource));
    this.unsubscribers.push(this.ctx.store.subscribe((event) => {
      if (event.resource !== key) return;
      for (const [namespace, name] of map(event)) this.enqueue(namespace, name);
    }));
    return this;
  }

  /** Receive every store event (for mappings `watch` cannot express); undone by `stop`. */
  listen(listener: StoreListener): this {
    this.unsubscribers.push(this.ctx.store.subscribe(listener));
    return this;
  }

  /** Enqueue every existing object of a resource (the initial list of an informer). */
  resync(resource: ResourceRef): this {
    for (const obj of this.ctx.store.list(resource).items) {
      this.enqueue(String(metadata(obj).namespace ?? ''), String(metadata(obj).name ?? ''));
    }
    return this;
  }

  /** Reconcile `namespace/name` after `delayMs` (the configured delay by default); an earlier due time wins. */
  enqueue(namespace: string, name: string, delayMs = this.ctx.delayMs): void {
    if (this.stopped || !name) return;
    const key = `${namespace}/${name}`;
    const at = Date.now() + delayMs;
    const pending = this.due.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => this.run(key, namespace, name), delayMs);
    timer.unref();
    this.due.set(key, { at, timer });
  }

  /**
   * Hold back the reconciles of the objects `held` selects (default every one): events are still
   * taken, and what came due meanwhile runs at once when the returned function releases the hold.
   */
  hold(held: HeldObjects = () => true): () => void {
    const hold: HeldObjects = (namespace, name) => held(namespace, name);
    this.holds.add(hold);
    return () => {
      if (!this.holds.delete(hold)) return;
      for (const [key, [namespace, name]] of this.heldKeys) {
        if (this.isHeld(namespace, name)) continue;
        this.heldKeys.delete(key);
        this.enqueue(namespace, name, 0);
      }
    };
  }

  /** Stop: no more events are taken and pending work is dropped. */
  stop(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    for (const { timer } of this.due.values()) clearTimeout(timer);
    this.due.clear();
    this.heldKeys.clear();
  }

  private isHeld(namespace: string, name: string): boolean {
    for (const hold of this.holds) if (hold(namespace, name)) return true;
    return false;
  }

  private run(key: string, namespace: string, name: string): void {
    this.due.delete(key);
    if (this.stopped) return;
    if (this.isHeld(namespace, name)) {
      this.heldKeys.set(key, [namespace, name]);
      return;
    }
    try {
      const again = this.reconcile(namespace, name);
      if (typeof again === 'number') this.enqueue(namespace, name, again);
    } catch (err) {
      // 404: the object went away meanwhile; the next event (if any) brings it back.
      if (err instanceof StatusError && err.code === 404) return;
      if (!(err instanceof StatusError && err.code === 409)) {
        this.ctx.log?.error({ err, controller: this.name, object: key }, 'sandbox controller: reconcile failed');
      }
      this.enqueue(namespace, name, err instanceof StatusError && err.code === 409 ? this.ctx.delayMs : RETRY_MS);
    }
  }
}

/** The metadata map of a stored object (read-only use). */
export function metadata(obj: JsonObject): JsonObject {
  return isObject(obj.metadata) ? obj.metadata : {};
}

/** Labels of a stored object. */
export function labelsOf(obj: JsonObject): Record<string, string> {
  const labels = metadata(obj).labels;
  // Label values pass the API's label-value check on every write (api/object-meta.ts).
  return isObject(labels) ? labels as Record<string, string> : {};
}

/** Finalizers of a stored object. */
export function finalizersOf(obj: JsonObject): string[] {
  const list = metadata(obj).finalizers;
  return Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string') : [];
}

/** The controller owner reference (kind, name, uid) of an object, if any. */
export function controllerOf(obj: JsonObject): { kind: string; name: string; uid: string } | undefined {
  const refs = metadata(obj).ownerReferences;
  const ref = Array.isArray(refs) ? refs.filter(isObject).find((r) => r.controller === true) : undefined;
  return ref ? { kind: String(ref.kind), name: String(ref.name), uid: String(ref.uid) } : undefined;
}

/** An owner reference to `owner` that marks it the controller. */
export function ownerReference(owner: JsonObject): JsonObject {
  const meta = metadata(owner);
  return {
    apiVersion: owner.apiVersion, kind: owner.kind, name: meta.name, uid: meta.uid, controller: true,
    blockOwnerDeletion: true,
  };
}

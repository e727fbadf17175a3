/**
 * kube-controller-manager's garbage collector for every served kind: an object whose owners are all gone
 * is deleted in the background. As the real one: an owner counts only with the reference's uid; a
 * dependent keeps live owners and loses dangling references; an unserved owner kind keeps the dependent;
 * a cluster-scoped dependent of a namespaced owner kind gets `OwnerRefInvalidNamespace`; objects created
 * with dangling references are collected too; Orphan and Foreground deletion end by removing the
 * `orphan`/`foregroundDeletion` finalizer. It writes in-process as `generic-garbage-collector`.
 */
import { asList, isObject, type JsonObject } from '../api/json.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../ops/delete.js';
import { resourceKey, type ResourceDef } from '../resources/resource-def.js';
import type { StoreEvent } from '../store/watch-hub.js';
import { Controller, finalizersOf, metadata, type ControllerContext } from './work-loop.js';
import { recordEvent, subjectOf } from './status-helpers.js';

const MANAGER = 'generic-garbage-collector';

type Ref = JsonObject & { uid?: unknown; kind?: unknown; apiVersion?: unknown; name?: unknown };

const refsOf = (o: JsonObject): Ref[] =>
  asList(metadata(o).ownerReferences).filter(isObject);
const groupOf = (apiVersion: unknown): string => {
  const text = String(apiVersion ?? '');
  return text.includes('/') ? text.slice(0, text.lastIndexOf('/')) : '';
};

/** A work item: the dependent `verify|<resource>|<name>`, owner finalizers `owner|<resource>|<name>`, or
 * `gone|<uid>`. */
const key = (kind: 'verify' | 'owner', def: ResourceDef, name: string): string => `${kind}|${resourceKey(def)}|${name}`;

class Collector {
  constructor(private readonly ctx: ControllerContext) {}

  private get store() {
    return this.ctx.store;
  }

  private defOf(resource: string): ResourceDef | undefined {
    return this.store.registry.all().find((d) => resourceKey(d) === resource);
  }

  /** The served resource of an owner reference's kind (any version of its group). */
  private ownerDef(ref: Ref): ResourceDef | undefined {
    const group = groupOf(ref.apiVersion);
    return this.store.registry.forKind(String(ref.apiVersion), String(ref.kind))
      ?? this.store.registry.all().find((d) => d.group === group && d.kind === ref.kind);
  }

  run(namespace: string, item: string): number | void {
    const [kind, a = '', b = ''] = item.split('|');
    if (kind === 'gone') return this.ownerGone(namespace, a);
    const def = this.defOf(a);
    if (!def) return;
    if (kind === 'verify') this.verify(def, namespace, b);
    else if (kind === 'owner') return this.finishOwner(def, namespace, b);
  }

  /** Every object (of every kind) that references `uid`, in the namespace or, for a cluster-scoped owner, anywhere. */
  private dependents(namespace: string, uid: string): Array<[ResourceDef, JsonObject]> {
    const out: Array<[ResourceDef, JsonObject]> = [];
    for (const def of this.store.registry.all()) {
      if (namespace !== '' && !def.namespaced) continue;
      for (const [, o] of this.store.objects.list(def, def.namespaced ? namespace : '')) {
        if (refsOf(o).some((r) => r.uid === uid)) out.push([def, o]);
      }
    }
    return out;
  }

  private ownerGone(namespace: string, uid: string): void {
    for (const [def, o] of this.dependents(namespace, uid)) {
      this.verify(def, String(metadata(o).namespace ?? ''), String(metadata(o).name));
    }
  }

  /** Delete the dependent when no owner is left, or drop its dangling references. */
  private verify(def: ResourceDef, namespace: string, name: string): void {
    const dependent = this.store.find(def, namespace, name);
    if (!dependent || metadata(dependent).deletionTimestamp) return;
    const refs = refsOf(dependent);
    if (refs.length === 0) return;
    const dangling: Ref[] = [];
    let live = 0;
    for (const ref of refs) {
      const ownerDef = this.ownerDef(ref);
      if (!ownerDef) { live++; continue; } // cannot be verified: keep
      if (ownerDef.namespaced && !def.namespaced) {
        live++;
        recordEvent(this.store, subjectOf(dependent), 'Warning', 'OwnerRefInvalidNamespace',
          `ownerRef ${JSON.stringify(ref)} does not exist in namespace ""`, 'garbage-collector-controller');
        continue;
      }
      const owner = this.store.find(ownerDef, ownerDef.namespaced ? namespace : '', String(ref.name ?? ''));
      if (owner && metadata(owner).uid === ref.uid) live++;
      else dangling.push(ref);
    }
    if (dangling.length === 0) return;
    if (live === 0) {
      this.store.delete(def, namespace, name, { fieldManager: MANAGER, propagationPolicy: 'Background' });
      return;
    }
    const uids = new Set(dangling.map((r) => r.uid));
    this.dropReferences(def, dependent, (r) => uids.has(r.uid));
  }

  private dropReferences(def: ResourceDef, dependent: JsonObject, drop: (ref: Ref) => boolean): void {
    const next = structuredClone(dependent);
    const meta = metadata(next);
    const kept = refsOf(dependent).filter((r) => !drop(r));
    if (kept.length > 0) meta.ownerReferences = kept;
    else delete meta.ownerReferences;
    this.store.update(def, next, { fieldManager: MANAGER });
  }

  /** An owner being deleted with the orphan or foregroundDeletion finalizer. */
  private finishOwner(def: ResourceDef, namespace: string, name: string): number | void {
    const owner = this.store.find(def, namespace, name);
    if (!owner || !metadata(owner).deletionTimestamp) return;
    const finalizers = finalizersOf(owner);
    const uid = String(metadata(owner).uid ?? '');
    const scope = def.namespaced ? namespace : '';
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      for (const [dDef, o] of this.dependents(scope, uid)) this.dropReferences(dDef, o, (r) => r.uid === uid);
      return this.removeFinalizer(def, owner, ORPHAN_FINALIZER);
    }
    if (finalizers.includes(FOREGROUND_FINALIZER)) {
      const left = this.dependents(scope, uid);
      for (const [dDef, o] of left) {
        if (!metadata(o).deletionTimestamp) {
          this.store.delete(dDef, String(metadata(o).namespace ?? ''), String(metadata(o).name),
            { fieldManager: MANAGER, propagationPolicy: 'Foreground' });
        }
      }
      const blocking = this.dependents(scope, uid).filter(([, o]) =>
        refsOf(o).some((r) => r.uid === uid && r.blockOwnerDeletion === true),
      );
      if (blocking.length > 0) return this.ctx.delayMs || 50; // look again once they are gone
      return this.removeFinalizer(def, owner, FOREGROUND_FINALIZER);
    }
  }

  private removeFinalizer(def: ResourceDef, owner: JsonObject, finalizer: string): void {
    const next = structuredClone(owner);
    metadata(next).finalizers = finalizersOf(owner).filter((f) => f !== finalizer);
    this.store.update(def, next, { fieldManager: MANAGER });
  }
}

const refUids = (o: JsonObject | undefined): string => (o ? refsOf(o).map((r) => String(r.uid)).join(',') : '');

/** Start the garbage collector over every store event. */
export function startGarbageCollector(ctx: ControllerContext): Controller {
  const collector = new Collector(ctx);
  const gc = new Controller('garbage-collector', ctx, (ns, item) => collector.run(ns, item));
  const resourceDef = (event: StoreEvent) => ctx.store.registry.all().find((d) => resourceKey(d) === event.resource);
  gc.listen((event) => {
    const meta = metadata(event.object);
    const name = String(meta.name ?? '');
    if (event.type === 'DELETED') {
      gc.enqueue(event.namespace, `gone|${String(meta.uid ?? '')}`, 0);
      return;
    }
    const def = resourceDef(event);
    if (!def) return;
    if (refsOf(event.object).length > 0 &&
      (event.type === 'ADDED' || refUids(event.previous) !== refUids(event.object))) {
      gc.enqueue(event.namespace, key('verify', def, name), 0);
    }
    const finalizers = finalizersOf(event.object);
    if (
      meta.deletionTimestamp &&
      (finalizers.includes(ORPHAN_FINALIZER) || finalizers.includes(FOREGROUND_FINALIZER))
    ) {
      gc.enqueue(event.namespace, key('owner', def, name), 0);
    }
  });
  return gc;
}

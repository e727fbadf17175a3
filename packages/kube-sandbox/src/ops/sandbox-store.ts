/**
 * The sandbox's objects as in-process code sees them: the HTTP API's operations, semantics and
 * StatusErrors without HTTP, so tests seed and inspect state and controllers watch and write.
 * Returned objects are frozen snapshots (copy before changing); a resource may be named by plural,
 * `plural.group`, kind or short name.
 */
import { randomUUID } from 'node:crypto';
import { crdObjectFor, customresourcedefinitions } from '../resources/crds.js';
import { isObject, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import { ResourceRegistry } from '../resources/registry.js';
import { groupResource, type ResourceDef } from '../resources/resource-def.js';
import { ObjectStore } from '../store/object-store.js';
import type { StoreListener } from '../store/watch-hub.js';
import { createObject } from './create.js';
import { deleteCollection, deleteObject, type DeleteResult } from './delete.js';
import { listObjects } from './list.js';
import { patchObject, type PatchOptions, type PatchResult } from './patch.js';
import type { DeleteOptions, ListOptions, ListResult, OpsEnv, PatchType, WriteOptions } from './op-options.js';
import { updateObject } from './update.js';
import { startWatch, type WatchEmit, type WatchHandle, type WatchOptions } from './watch.js';

/** A resource named any way the registry resolves, or its definition. */
export type ResourceRef = string | ResourceDef;

const namespaceOf = (obj: JsonObject): string => (isObject(obj.metadata) ? String(obj.metadata.namespace ?? '') : '');
const nameOf = (obj: JsonObject): string => (isObject(obj.metadata) ? String(obj.metadata.name ?? '') : '');

export class SandboxStore implements OpsEnv {
  readonly registry: ResourceRegistry;
  readonly objects: ObjectStore;

  constructor(options: { registry?: ResourceRegistry; historyCapacity?: number } = {}) {
    this.registry = options.registry ?? new ResourceRegistry();
    this.objects = new ObjectStore(options.historyCapacity);
    // The CRDs of the custom kinds served, as a cluster that has them installed lists them.
    const crds = this.registry.all().find((d) => d === customresourcedefinitions);
    if (crds) {
      for (const def of this.registry.all()) {
        if (def.custom) this.objects.put(crds, crdObjectFor(def, randomUUID()), 'ADDED');
      }
    }
  }

  /** The definition of a resource; throws for names the sandbox does not serve. */
  resource(ref: ResourceRef): ResourceDef {
    return this.registry.require(ref);
  }

  /** The newest resourceVersion written. */
  get revision(): number {
    return this.objects.revision;
  }

  /** The object, or a 404 StatusError. */
  get(ref: ResourceRef, namespace: string, name: string): JsonObject {
    const def = this.resource(ref);
    const obj = this.objects.get(def, namespace, name);
    if (!obj) throw statusErrors.notFound(groupResource(def), name);
    return obj;
  }

  /** The object, or undefined. */
  find(ref: ResourceRef, namespace: string, name: string): JsonObject | undefined {
    return this.objects.get(this.resource(ref), namespace, name);
  }

  list(ref: ResourceRef, opts: ListOptions = {}): ListResult {
    return listObjects(this, this.resource(ref), opts);
  }

  /** Create; the namespace comes from the object's metadata. */
  create(ref: ResourceRef, obj: JsonObject, opts: WriteOptions = {}): JsonObject {
    return createObject(this, this.resource(ref), namespaceOf(obj), obj, opts);
  }

  /** Replace (PUT); a non-empty metadata.resourceVersion must be current. */
  update(ref: ResourceRef, obj: JsonObject, opts: WriteOptions = {}): JsonObject {
    return updateObject(this, this.resource(ref), namespaceOf(obj), nameOf(obj), obj, opts);
  }

  /** Replace the status only (PUT …/status). */
  updateStatus(ref: ResourceRef, obj: JsonObject, opts: WriteOptions = {}): JsonObject {
    const def = this.resource(ref);
    if (!def.statusSubresource) throw statusErrors.pathNotFound();
    return updateObject(this, def, namespaceOf(obj), nameOf(obj), obj, opts, 'status');
  }

  patch(
    ref: ResourceRef, namespace: string, name: string, type: PatchType, body: unknown, opts: PatchOptions = {},
  ): PatchResult {
    return patchObject(this, this.resource(ref), namespace, name, type, body, opts);
  }

  /** Server-side apply under `fieldManager` (required). */
  apply(ref: ResourceRef, obj: JsonObject, opts: PatchOptions & { fieldManager: string }): PatchResult {
    return patchObject(this, this.resource(ref), namespaceOf(obj), nameOf(obj), 'apply', obj, opts);
  }

  delete(ref: ResourceRef, namespace: string, name: string, opts: DeleteOptions = {}): DeleteResult {
    return deleteObject(this, this.resource(ref), namespace, name, opts);
  }

  deleteCollection(ref: ResourceRef, list: ListOptions = {}, opts: DeleteOptions = {}): JsonObject[] {
    return deleteCollection(this, this.resource(ref), list, opts);
  }

  /** Watch one resource with the HTTP watch's semantics; events arrive synchronously. */
  watch(ref: ResourceRef, opts: WatchOptions, emit: WatchEmit): WatchHandle {
    return startWatch(this, this.resource(ref), opts, emit);
  }

  /** Every committed change of every resource, in commit order (the controllers' event bus). */
  subscribe(listener: StoreListener): () => void {
    return this.objects.hub.subscribe(listener);
  }
}

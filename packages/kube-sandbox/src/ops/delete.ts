/**
 * Deleting objects: preconditions (uid, resourceVersion), finalizers (an object with
 * finalizers gets a deletionTimestamp and stays until they are removed; the last removal
 * deletes it), dry run, namespace termination and delete-collection. Propagation
 * follows the real server: Background (the default) removes the object at once and
 * leaves its dependents to the garbage collector; Orphan and Foreground add the
 * `orphan` or `foregroundDeletion` finalizer, which the collector removes once it has
 * orphaned, or deleted, the dependents.
 */
import { clone, isObject, metaOf, readMeta, nowTimestamp, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import { combine, fieldSelector, labelSelector } from '../store/selectors.js';
import { namespaces } from '../resources/builtin-core.js';
import { groupResource, type ResourceDef } from '../resources/types.js';
import { afterRemoval, terminateNamespace } from './namespace-lifecycle.js';
import type { DeleteOptions, ListOptions, OpsEnv } from './types.js';

/** The finalizers a propagation policy leaves for the garbage collector. */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** The object's finalizers once the propagation policy is applied. */
function finalizersFor(old: JsonObject, policy: string | undefined): string[] {
  const own = isObject(old.metadata) && Array.isArray(old.metadata.finalizers) ? old.metadata.finalizers.map(String) : [];
  const gc = policy === 'Orphan' ? ORPHAN_FINALIZER : policy === 'Foreground' ? FOREGROUND_FINALIZER : undefined;
  const rest = own.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy === undefined) return own;
  return gc ? [...rest, gc] : rest;
}

/** The outcome of a delete: the object's last state and whether it is gone from the store. */
export interface DeleteResult {
  object: JsonObject;
  removed: boolean;
}

function checkPreconditions(def: ResourceDef, old: JsonObject, opts: DeleteOptions): void {
  const meta = readMeta(old);
  const name = String(meta.name);
  const { uid, resourceVersion } = opts.preconditions ?? {};
  if (uid && uid !== meta.uid) {
    throw statusErrors.conflict(groupResource(def), name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(meta.uid)}`);
  }
  if (resourceVersion && resourceVersion !== meta.resourceVersion) {
    throw statusErrors.conflict(groupResource(def), name,
      `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${String(meta.resourceVersion)}`);
  }
}

/** DELETE one object. */
export function deleteObject(env: OpsEnv, def: ResourceDef, namespace: string, name: string, opts: DeleteOptions = {}): DeleteResult {
  const old = env.objects.get(def, namespace, name);
  if (!old) throw statusErrors.notFound(groupResource(def), name);
  checkPreconditions(def, old, opts);
  if (def === namespaces && !opts.dryRun) {
    const object = terminateNamespace(env, old, (d, ns, n) => {
      if (env.objects.get(d, ns, n)) deleteObject(env, d, ns, n, {});
    });
    return { object, removed: !env.objects.get(namespaces, '', name) };
  }
  const finalizers = readMeta(old).deletionTimestamp ? finalizersFor(old, undefined) : finalizersFor(old, opts.propagationPolicy);
  if (finalizers.length > 0) {
    if (readMeta(old).deletionTimestamp) return { object: old, removed: false };
    const next = clone(old);
    const meta = metaOf(next);
    meta.finalizers = finalizers;
    meta.deletionTimestamp = nowTimestamp();
    meta.deletionGracePeriodSeconds = 0;
    // Deletion starting changes what controllers must do, so a generation, where there is one, moves on.
    if (typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
    return { object: opts.dryRun ? next : env.objects.put(def, next, 'MODIFIED', old), removed: false };
  }
  if (opts.dryRun) return { object: old, removed: true };
  const gone = env.objects.remove(def, old);
  afterRemoval(env, def, gone);
  return { object: gone, removed: true };
}

/** DELETE on a collection: every object matching the selectors. Returns their last states. */
export function deleteCollection(env: OpsEnv, def: ResourceDef, list: ListOptions, opts: DeleteOptions = {}): JsonObject[] {
  const select = combine(labelSelector(list.labelSelector), fieldSelector(list.fieldSelector, def));
  const targets = env.objects.list(def, list.namespace ?? '').map(([, o]) => o).filter((o) => !select || select(o));
  return targets.map((o) => {
    const meta = readMeta(o);
    return deleteObject(env, def, String(meta.namespace ?? ''), String(meta.name), opts).object;
  });
}

/**
 * Deleting objects as the real server does: preconditions (uid, resourceVersion), finalizers, dry run,
 * namespace termination, delete-collection, and propagation (Background leaves dependents to the garbage
 * collector; Orphan and Foreground add their finalizer). A pod on a node is deleted gracefully, as the pod
 * registry does: Terminating for its grace period until the kubelet deletes it; a second delete may only
 * shorten the grace period.
 */
import { clone, isObject, metaOf, readMeta, nowTimestamp, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import { combine, fieldSelector, labelSelector } from '../store/selectors.js';
import { namespaces, pods } from '../resources/builtin-core.js';
import { groupResource, type ResourceDef } from '../resources/resource-def.js';
import { afterRemoval, terminateNamespace } from './namespace-lifecycle.js';
import type { DeleteOptions, ListOptions, OpsEnv } from './op-options.js';

/** The finalizers a propagation policy leaves for the garbage collector. */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** The object's finalizers once the propagation policy is applied. */
function finalizersFor(old: JsonObject, policy: string | undefined): string[] {
  const own =
    isObject(old.metadata) && Array.isArray(old.metadata.finalizers) ? old.metadata.finalizers.map(String) : [];
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
    throw statusErrors.conflict(groupResource(def), name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(meta.uid)}`);
  }
  if (resourceVersion && resourceVersion !== meta.resourceVersion) {
    throw statusErrors.conflict(groupResource(def), name,
      `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ` +
      `${String(meta.resourceVersion)}`);
  }
}

/** The grace period a pod's deletion gets (0: remove it now). */
function podGracePeriod(pod: JsonObject, opts: DeleteOptions): number {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
  if (opts.gracePeriodSeconds !== undefined) return opts.gracePeriodSeconds;
  return typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
}

/** Start (or shorten) a pod's graceful deletion; the kubelet removes it later. */
function deletePodGracefully(env: OpsEnv, old: JsonObject, grace: number, opts: DeleteOptions): DeleteResult {
  const meta = readMeta(old);
  const pending = typeof meta.deletionGracePeriodSeconds === 'number' ? meta.deletionGracePeriodSeconds : undefined;
  if (meta.deletionTimestamp && pending !== undefined && pending <= grace) return { object: old, removed: false };
  const next = clone(old);
  const nextMeta = metaOf(next);
  nextMeta.deletionTimestamp = new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  nextMeta.deletionGracePeriodSeconds = grace;
  const finalizers = finalizersFor(old, meta.deletionTimestamp ? undefined : opts.propagationPolicy);
  if (finalizers.length > 0) nextMeta.finalizers = finalizers;
  else delete nextMeta.finalizers;
  return { object: opts.dryRun ? next : env.objects.put(pods, next, 'MODIFIED', old), removed: false };
}

/** DELETE one object. */
export function deleteObject(
  env: OpsEnv, def: ResourceDef, namespace: string, name: string, opts: DeleteOptions = {},
): DeleteResult {
  const old = env.objects.get(def, namespace, name);
  if (!old) throw statusErrors.notFound(groupResource(def), name);
  checkPreconditions(def, old, opts);
  if (def === namespaces && !opts.dryRun) {
    const object = terminateNamespace(env, old, (d, ns, n) => {
      if (env.objects.get(d, ns, n)) deleteObject(env, d, ns, n, {});
    });
    return { object, removed: !env.objects.get(namespaces, '', name) };
  }
  if (def === pods) {
    const grace = podGracePeriod(old, opts);
    const pending = readMeta(old).deletionGracePeriodSeconds;
    if (grace > 0) return deletePodGracefully(env, old, grace, opts);
    // The kubelet's final delete of a pod its finalizers still hold: the grace period ends, the finalizers stay.
    if (typeof pending === 'number' && pending > 0 && finalizersFor(old, undefined).length > 0) {
      return deletePodGracefully(env, old, 0, opts);
    }
  }
  const finalizers = readMeta(old).deletionTimestamp
    ? finalizersFor(old, undefined)
    : finalizersFor(old, opts.propagationPolicy);
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
export function deleteCollection(
  env: OpsEnv, def: ResourceDef, list: ListOptions, opts: DeleteOptions = {},
): JsonObject[] {
  const select = combine(labelSelector(list.labelSelector), fieldSelector(list.fieldSelector, def));
  const targets = env.objects
    .list(def, list.namespace ?? '')
    .map(([, o]) => o)
    .filter((o) => !select || select(o));
  return targets.map((o) => {
    const meta = readMeta(o);
    return deleteObject(env, def, String(meta.namespace ?? ''), String(meta.name), opts).object;
  });
}

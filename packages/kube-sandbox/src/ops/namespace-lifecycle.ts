/**
 * Namespace deletion as the namespace controller performs it, kept synchronous: the
 * namespace turns Terminating (new content is refused), every object in it is deleted
 * (objects with finalizers stay until their finalizers are removed), and the namespace
 * itself goes away once it is empty and its own finalizers are gone.
 */
import { clone, isObject, metaOf, readMeta, nowTimestamp, type JsonObject } from '../api/json.js';
import { namespaces } from '../resources/builtin-core.js';
import type { ResourceDef } from '../resources/types.js';
import type { OpsEnv } from './types.js';

const metaFinalizers = (obj: JsonObject): unknown[] => {
  const list = isObject(obj.metadata) ? obj.metadata.finalizers : undefined;
  return Array.isArray(list) ? list : [];
};

/** Remove a terminating namespace once no object is left in it (and its finalizers allow). */
export function finalizeNamespaceIfEmpty(env: OpsEnv, namespace: string): void {
  const ns = env.objects.get(namespaces, '', namespace);
  if (!ns || !readMeta(ns).deletionTimestamp) return;
  for (const def of env.registry.all()) {
    if (def.namespaced && env.objects.list(def, namespace).length > 0) return;
  }
  if (metaFinalizers(ns).length > 0) {
    const spec = isObject(ns.spec) ? ns.spec : {};
    if (Array.isArray(spec.finalizers) && spec.finalizers.length > 0) {
      env.objects.put(namespaces, { ...ns, spec: { ...spec, finalizers: [] } }, 'MODIFIED', ns);
    }
    return;
  }
  env.objects.remove(namespaces, ns);
}

/** Called after any object is removed from the store. */
export function afterRemoval(env: OpsEnv, def: ResourceDef, gone: JsonObject): void {
  if (def.namespaced) finalizeNamespaceIfEmpty(env, String(readMeta(gone).namespace ?? ''));
}

/**
 * Start deleting a namespace: mark it Terminating and delete its content with
 * `deleteContent` (the ordinary delete, so finalizers are honoured).
 */
export function terminateNamespace(
  env: OpsEnv, ns: JsonObject, deleteContent: (def: ResourceDef, namespace: string, name: string) => void,
): JsonObject {
  const name = String(readMeta(ns).name);
  let current = ns;
  if (!readMeta(ns).deletionTimestamp) {
    const next = clone(ns);
    metaOf(next).deletionTimestamp = nowTimestamp();
    metaOf(next).deletionGracePeriodSeconds = 0;
    next.status = { ...(isObject(next.status) ? next.status : {}), phase: 'Terminating' };
    current = env.objects.put(namespaces, next, 'MODIFIED', ns);
  }
  for (const def of env.registry.all()) {
    if (!def.namespaced) continue;
    for (const [, obj] of env.objects.list(def, name)) deleteContent(def, name, String(readMeta(obj).name));
  }
  finalizeNamespaceIfEmpty(env, name);
  return env.objects.get(namespaces, '', name) ?? current;
}

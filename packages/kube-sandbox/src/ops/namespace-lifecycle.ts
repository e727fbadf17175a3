/**
 * Namespace deletion as the namespace controller performs it, kept synchronous: the
 * namespace turns Terminating (new content is refused), every object in it is deleted
 * (objects with finalizers stay until their finalizers are removed), and the namespace
 * itself goes away once it is empty and its own finalizers are gone.
 */
import { clone, isObject, metaOf, readMeta, nowTimestamp, type JsonObject } from '../api/json.js';
import { namespaces } from '../resources/builtin-core.js';
import type { ResourceDef } from '../resources/resource-def.js';
import type { OpsEnv } from './op-options.js';

const metaFinalizers = (obj: JsonObject): unknown[] => {
  const list = isObject(obj.metadata) ? obj.metadata.finalizers : undefined;
  return Array.isArray(list) ? list : [];
};

/** Remove a terminating namespace once no object is left in it (and its finalizers allow). */
export function finalizeNamespaceIfEmpty(env: OpsEnv, namespace: string): void {
  const ns = env.objects.get(namespaces, '', namespace);
  if (!ns || !readMeta(ns).deletionTimestamp) return;
  for (const def of env.registry.all()) {
    if (def.namespaced && env.objects.list(def, namespace).length > 0) {
      reportRemaining(env, ns);
      return;
    }
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

/**
 * What the namespace controller reports on a Terminating namespace whose content waits on finalizers
 * (the NamespaceCondition types `kubectl describe namespace` shows): the resources remaining and the
 * finalizers holding them, in its words, written only when they change.
 */
type Condition = [type: string, status: string, reason: string, message: string];

function reportRemaining(env: OpsEnv, ns: JsonObject): void {
  const namespace = String(readMeta(ns).name);
  const resources: string[] = [];
  const finalizers = new Map<string, number>();
  for (const def of env.registry.all()) {
    if (!def.namespaced) continue;
    const objects = env.objects.list(def, namespace);
    if (objects.length === 0) continue;
    resources.push(`${def.resource}.${def.group} has ${objects.length} resource instances`);
    for (const [, obj] of objects) {
      for (const f of metaFinalizers(obj)) finalizers.set(String(f), (finalizers.get(String(f)) ?? 0) + 1);
    }
  }
  const held = [...finalizers].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, n]) => `${f} in ${n} resource instances`);
  const wanted: Condition[] = [
    ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
    ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions',
      'All legacy kube types successfully parsed'],
    ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted',
      'All content successfully deleted, may be waiting on finalization'],
    ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain',
      `Some resources are remaining: ${resources.sort().join(', ')}`],
    held.length > 0
      ? ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain',
          `Some content in the namespace has finalizers remaining: ${held.join(', ')}`]
      : ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers',
          'All content-preserving finalizers finished'],
  ];
  const status = isObject(ns.status) ? ns.status : {};
  const before = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const same = (c: JsonObject, [type, st, reason, message]: Condition) =>
    c.type === type && c.status === st && c.reason === reason && c.message === message;
  if (before.length === wanted.length && wanted.every((w, i) => same(before[i]!, w))) return;
  const now = nowTimestamp();
  const conditions = wanted.map(([type, st, reason, message]) => {
    const kept = before.find((c) => c.type === type && c.status === st);
    return { type, status: st, lastTransitionTime: kept?.lastTransitionTime ?? now, reason, message };
  });
  env.objects.put(namespaces, { ...ns, status: { ...status, conditions } }, 'MODIFIED', ns);
}

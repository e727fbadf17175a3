/**
 * Server-side apply (structured-merge-diff's Apply): merge the applied configuration into the live
 * object, drop fields this manager no longer applies (unless another owns them), refuse to change fields
 * another manager owns without `force`, and record the `Apply` entry as exactly the applied fields.
 * Conflicts are the real texts (`Apply failed with 1 conflict: conflict with "…" using apps/v1: .spec.replicas`).
 */
import { asObject, clone, deepEqual, isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import { statusErrors, type StatusError } from '../api/status.js';
import type { SchemaNode } from '../resources/schema.js';
import { FieldSet, pathString, type FieldPath } from './field-set.js';
import { trackedView, type ManagerEntry, type WriteIdentity } from './managed-fields.js';
import { appliedFieldSet, childOf, compareObjects, isAtomicMap, itemElement, listKind,
  removeFieldPath } from './schema-walk.js';

/** The merged object (before the server's own normalisation) and the new managedFields entries. */
export interface ApplyOutcome {
  merged: JsonObject;
  entries: ManagerEntry[];
}

function merge(live: unknown, config: unknown, node: SchemaNode | undefined): unknown {
  if (isObject(config) && isObject(live) && !isAtomicMap(node)) {
    const out: JsonObject = { ...live };
    for (const [key, value] of Object.entries(config)) {
      if (value === null) delete out[key];
      else out[key] = merge(live[key], value, childOf(node, key).node);
    }
    return out;
  }
  if (Array.isArray(config) && Array.isArray(live) && listKind(node) !== 'atomic') {
    const out = [...live];
    if (listKind(node) === 'set') {
      for (const item of config) if (!out.some((x) => deepEqual(x, item))) out.push(clone(item));
      return out;
    }
    const positions = new Map(out.map((item, i) => [itemElement(item, i, node), i]));
    config.forEach((item, i) => {
      const at = positions.get(itemElement(item, i, node));
      if (at === undefined) out.push(clone(item));
      else out[at] = merge(out[at], item, node?.items);
    });
    return out;
  }
  return clone(config);
}

/** How a conflict message names a manager (apimachinery's printManager). */
function describe(e: ManagerEntry): string {
  let text = JSON.stringify(e.manager);
  if (e.subresource) text += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') text += ` using ${e.apiVersion}`;
  return text;
}

function conflictError(conflicts: Array<{ entry: ManagerEntry; paths: FieldPath[] }>): StatusError {
  const total = conflicts.reduce((n, c) => n + c.paths.length, 0);
  const causes = conflicts.flatMap((c) => c.paths.map((p) => ({
    reason: 'FieldManagerConflict', message: `conflict with ${describe(c.entry)}`, field: pathString(p),
  })));
  if (total === 1) {
    const only = conflicts[0]!;
    return statusErrors.applyConflict(`Apply failed with 1 conflict: conflict with ${describe(only.entry)}: ` +
      `${pathString(only.paths[0]!)}`, causes);
  }
  const lines = [...conflicts]
    .sort((a, b) => (a.entry.manager < b.entry.manager ? -1 : a.entry.manager > b.entry.manager ? 1 : 0))
    .flatMap((c) => [`conflicts with ${describe(c.entry)}:`, ...c.paths.map((p) => `- ${pathString(p)}`)]);
  return statusErrors.applyConflict(`Apply failed with ${total} conflicts: ${lines.join('\n')}`, causes);
}

/**
 * Apply `config` (already restricted to what this endpoint may set) to `live` (empty when
 * the object does not exist yet). Throws a 409 Conflict when another manager owns a field
 * the apply would change and `force` is not set.
 */
export function serverSideApply(
  live: JsonObject | undefined, config: JsonObject, entries: readonly ManagerEntry[], id: WriteIdentity, force: boolean,
): ApplyOutcome {
  const base = live ?? {};
  const view = (o: JsonObject) => trackedView(o, id.scope, id.hasStatusSubresource);
  const applied = appliedFieldSet(view(config), id.schema);
  const subresource = id.scope === 'status' ? 'status' : '';
  const isMine = (e: ManagerEntry) => e.manager === id.manager && e.operation === 'Apply' &&
    e.subresource === subresource;
  const previous = entries.find(isMine)?.set ?? new FieldSet();
  const others = entries.filter((e) => !isMine(e));
  const othersUnion = others.reduce((u, e) => u.union(e.set), new FieldSet());

  let merged: JsonObject;
  if (id.scope === 'status') {
    merged = { ...base };
    if (config.status !== undefined) {
      merged.status = merge(base.status, config.status, childOf(id.schema, 'status').node);
    }
  } else {
    // Two objects merge into an object (an atomic root is the config's copy).
    merged = asObject(merge(base, config, id.schema));
  }
  // The merge shares untouched subtrees with the (frozen) live object; pruning needs its own copy.
  merged = clone(merged);
  // Fields this manager applied last time and dropped now go away, unless someone else holds them.
  const dropped = previous.difference(applied).toPaths().sort((a, b) => b.length - a.length);
  for (const path of dropped) {
    if (!applied.touches(path) && !othersUnion.touches(path)) removeFieldPath(merged, path);
  }

  const cmp = compareObjects(view(base), view(merged), id.schema);
  const changed = cmp.added.union(cmp.modified);
  const conflicts = others
    .map((entry) => ({ entry, paths: entry.set.intersection(changed).toPaths() }))
    .filter((c) => c.paths.length > 0);
  if (conflicts.length > 0 && !force) throw conflictError(conflicts);

  const next: ManagerEntry[] = others.map((e) => {
    const set = e.set.difference(changed).difference(cmp.removed);
    return set.equals(e.set) ? e : { ...e, set };
  });
  next.push({ manager: id.manager, operation: 'Apply', apiVersion: id.apiVersion, subresource, time: nowTimestamp(),
    set: applied });
  return { merged, entries: next };
}

/**
 * `metadata.managedFields`, recorded on every write as kube-apiserver does: an `Update` entry takes the
 * fields the write added or changed (from other managers, without conflict); apply records an `Apply`
 * entry (apply-merge.ts). Ownership is tracked without the fields the server manages itself and without
 * the other endpoint's part (status for the main resource, everything but status for `/status`).
 */
import { isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import type { SchemaNode } from '../resources/schema.js';
import { FieldSet } from './field-set.js';
import { compareObjects } from './schema-walk.js';

export type ManagedOperation = 'Apply' | 'Update';

/** One managedFields entry with its field set parsed. */
export interface ManagerEntry {
  manager: string;
  operation: ManagedOperation;
  apiVersion: string;
  time: string;
  subresource: string;
  set: FieldSet;
}

/** Which endpoint a write came through: the main resource or `/status`. */
export type WriteScope = 'main' | 'status';

const SERVER_META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink'];

/** The part of an object whose fields are owned by managers of this scope. */
export function trackedView(obj: JsonObject, scope: WriteScope, hasStatusSubresource: boolean): JsonObject {
  if (scope === 'status') return obj.status === undefined ? {} : { status: obj.status };
  const view: JsonObject = { ...obj };
  delete view.apiVersion;
  delete view.kind;
  if (hasStatusSubresource) delete view.status;
  if (isObject(obj.metadata)) {
    const meta: JsonObject = { ...obj.metadata };
    for (const key of SERVER_META) delete meta[key];
    if (Object.keys(meta).length > 0) view.metadata = meta;
    else delete view.metadata;
  }
  return view;
}

/** The entries stored on an object. */
export function readManagedFields(obj: JsonObject): ManagerEntry[] {
  const list = isObject(obj.metadata) && Array.isArray(obj.metadata.managedFields) ? obj.metadata.managedFields : [];
  return list.filter(isObject).map((e) => ({
    manager: String(e.manager ?? ''),
    operation: e.operation === 'Apply' ? 'Apply' : 'Update',
    apiVersion: String(e.apiVersion ?? ''),
    time: String(e.time ?? ''),
    subresource: String(e.subresource ?? ''),
    set: FieldSet.fromFieldsV1(e.fieldsV1),
  }));
}

/** Encode entries for storage: empty ones dropped, sorted like the real server (Apply first, then by time). */
export function encodeManagedFields(entries: readonly ManagerEntry[]): JsonObject[] {
  return entries
    .filter((e) => !e.set.isEmpty())
    .sort((p, q) => (p.operation !== q.operation ? (p.operation < q.operation ? -1 : 1)
      : p.time !== q.time ? (p.time < q.time ? -1 : 1)
        : p.manager !== q.manager ? (p.manager < q.manager ? -1 : 1)
          : p.subresource < q.subresource ? -1 : p.subresource > q.subresource ? 1 : 0))
    .map((e) => {
      const out: JsonObject = {
        manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, time: e.time,
        fieldsType: 'FieldsV1', fieldsV1: e.set.toFieldsV1(),
      };
      if (e.subresource) out.subresource = e.subresource;
      return out;
    });
}

/** The manager a write without `fieldManager` is recorded under: the User-Agent's product name. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const name = (userAgent ?? '').split('/')[0]!.trim();
  return name || 'unknown';
}

/** Who is writing, and through which endpoint. */
export interface WriteIdentity {
  manager: string;
  apiVersion: string;
  scope: WriteScope;
  schema: SchemaNode;
  hasStatusSubresource: boolean;
}

const sameEntry = (e: ManagerEntry, id: WriteIdentity, op: ManagedOperation): boolean =>
  e.manager === id.manager && e.operation === op && e.subresource === (id.scope === 'status' ? 'status' : '');

/**
 * Record an `Update` write: the writer gains the added and modified fields, every other
 * manager loses them, and removed fields leave every set.
 */
export function recordUpdate(
  entries: readonly ManagerEntry[], before: JsonObject, after: JsonObject, id: WriteIdentity,
): ManagerEntry[] {
  // metadata always exists on a real object, so it is never "added" as a whole.
  const view = (o: JsonObject): JsonObject => ({ metadata: {}, ...trackedView(o, id.scope, id.hasStatusSubresource) });
  const cmp = compareObjects(view(before), view(after), id.schema);
  const taken = cmp.added.union(cmp.modified);
  const now = nowTimestamp();
  let mine: ManagerEntry | undefined;
  const result: ManagerEntry[] = [];
  for (const e of entries) {
    if (sameEntry(e, id, 'Update')) {
      mine = e;
      continue;
    }
    const set = e.set.difference(taken).difference(cmp.removed);
    result.push(set.equals(e.set) ? e : { ...e, set });
  }
  const set = (mine?.set ?? new FieldSet()).difference(cmp.removed).union(taken);
  const changed = !mine || !set.equals(mine.set);
  result.push({
    manager: id.manager, operation: 'Update', apiVersion: id.apiVersion,
    subresource: id.scope === 'status' ? 'status' : '',
    time: changed || !mine ? now : mine.time, set,
  });
  return result;
}

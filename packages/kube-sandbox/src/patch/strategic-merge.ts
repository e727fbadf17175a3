/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for the built-in kinds:
 * like a merge patch, except that lists declared with a merge strategy merge item by item
 * (containers by `name`, env by `name`, finalizers as a set) instead of being replaced.
 * The patch directives kubectl sends are honoured: `$patch: replace|delete|merge`,
 * `$retainKeys`, `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`.
 * List semantics come from the same schema nodes server-side apply uses.
 */
import { clone, deepEqual, isObject, type JsonObject } from '../api/json.js';
import type { SchemaNode } from '../resources/schema.js';
import { childOf } from '../fields/schema-walk.js';
import { PatchApplyError } from './json-patch.js';

const DELETE_FROM = '$deleteFromPrimitiveList/';
const ELEMENT_ORDER = '$setElementOrder/';

const isDirective = (key: string): boolean =>
  key === '$patch' || key === '$retainKeys' || key.startsWith(DELETE_FROM) || key.startsWith(ELEMENT_ORDER);

/** A copy of a patch list with every directive removed; items that are only a `$patch` go. */
function stripListDirectives(list: readonly unknown[]): unknown[] {
  return list
    .filter((v) => !(isObject(v) && v.$patch !== undefined && Object.keys(v).length === 1))
    .map(stripDirectives);
}

/** A copy of a patch value with every directive removed (for values inserted as they are). */
function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return stripListDirectives(value);
  if (!isObject(value)) return clone(value);
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (!isDirective(k)) out[k] = stripDirectives(v);
  return out;
}

const mergeStrategy = (node: SchemaNode | undefined): boolean =>
  (node?.['x-kubernetes-patch-strategy'] ?? '').split(',').includes('merge');

function orderBy(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const identity = (item: unknown) => (key && isObject(item) ? item[key] : item);
  const wanted = order.map(identity);
  const listed = wanted.flatMap((w) => list.filter((item) => deepEqual(identity(item), w)));
  return [...listed, ...list.filter((item) => !wanted.some((w) => deepEqual(identity(item), w)))];
}

function mergeList(original: unknown, patch: unknown[], node: SchemaNode | undefined): unknown[] {
  if (patch.some((item) => isObject(item) && item.$patch === 'replace')) return stripListDirectives(patch);
  if (!mergeStrategy(node) || !Array.isArray(original)) return stripListDirectives(patch);
  const key = node?.['x-kubernetes-patch-merge-key'];
  const out = [...original];
  if (!key) {
    for (const item of patch) if (!out.some((existing) => deepEqual(existing, item))) out.push(clone(item));
    return out;
  }
  for (const item of patch) {
    if (!isObject(item) || item[key] === undefined) {
      throw new PatchApplyError(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    }
    const at = out.findIndex((existing) => isObject(existing) && deepEqual(existing[key], item[key]));
    if (item.$patch === 'delete') {
      if (at >= 0) out.splice(at, 1);
    } else if (at >= 0) {
      out[at] = strategicMerge(out[at], item, node?.items);
    } else {
      out.push(stripDirectives(item));
    }
  }
  return out;
}

/** Apply a strategic merge patch to `original` under `node`, returning a new value (undefined = deleted). */
export function strategicMerge(original: unknown, patch: unknown, node: SchemaNode | undefined): unknown {
  if (!isObject(patch)) return clone(patch);
  if (patch.$patch === 'delete') return undefined;
  if (patch.$patch === 'replace' || !isObject(original) || node?.['x-kubernetes-map-type'] === 'atomic') {
    return stripDirectives(patch);
  }
  const out: JsonObject = { ...original };
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) continue;
    const child = childOf(node, key).node;
    if (value === null) delete out[key];
    else if (Array.isArray(value)) out[key] = mergeList(out[key], value, child);
    else if (isObject(value)) {
      const merged = strategicMerge(out[key], value, child);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else out[key] = value;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM) && Array.isArray(value)) {
      const field = key.slice(DELETE_FROM.length);
      const list = out[field];
      if (Array.isArray(list)) out[field] = list.filter((item) => !value.some((v) => deepEqual(v, item)));
    } else if (key.startsWith(ELEMENT_ORDER) && Array.isArray(value)) {
      const field = key.slice(ELEMENT_ORDER.length);
      const child = childOf(node, field).node;
      const list = out[field];
      if (Array.isArray(list)) out[field] = orderBy(list, value, child?.['x-kubernetes-patch-merge-key']);
    }
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set(patch.$retainKeys.map(String));
    for (const key of Object.keys(out)) if (!keep.has(key)) delete out[key];
  }
  return out;
}

/**
 * Walking an object alongside its schema as structured-merge-diff does (struct fields or map entries,
 * atomic lists, sets, keyed lists and their path elements), and on top: the fields an object sets
 * (`appliedFieldSet`), the comparison of two versions and removal of a field path. A missing schema node
 * is "unknown": maps granular and lists atomic, as for SMD's deduced types.
 */
import { deepEqual, isObject, type JsonObject } from '../api/json.js';
import type { SchemaNode } from '../resources/schema.js';
import { FieldSet, type FieldPath } from './field-set.js';

export type ListKind = 'atomic' | 'set' | 'map';

/** The list semantics of a schema node. */
export function listKind(node: SchemaNode | undefined): ListKind {
  const type = node?.['x-kubernetes-list-type'];
  if (type) return type;
  return node?.['x-kubernetes-patch-merge-key'] ? 'map' : 'atomic';
}

/** The key fields of a map-type list. */
export function listKeys(node: SchemaNode | undefined): string[] {
  return node?.['x-kubernetes-list-map-keys'] ??
    (node?.['x-kubernetes-patch-merge-key'] ? [node['x-kubernetes-patch-merge-key']] : []);
}

/** True when a map or struct is replaced and owned as a whole. */
export function isAtomicMap(node: SchemaNode | undefined): boolean {
  return node?.['x-kubernetes-map-type'] === 'atomic';
}

/** The schema of a child field, and whether it is a declared struct field (not a map entry). */
export function childOf(
  node: SchemaNode | undefined, key: string,
): { node: SchemaNode | undefined; declared: boolean } {
  const declared = node?.properties?.[key];
  if (declared) return { node: declared, declared: true };
  return { node: node?.additionalProperties, declared: false };
}

/** The path element of a list item: `k:{"name":"web"}` for keyed lists, `v:"x"` for sets, else `i:<n>`. */
export function itemElement(item: unknown, index: number, node: SchemaNode | undefined): string {
  const kind = listKind(node);
  if (kind === 'set') return `v:${JSON.stringify(item)}`;
  if (kind === 'map' && isObject(item)) {
    const keys = listKeys(node).filter((k) => item[k] !== undefined).sort();
    if (keys.length > 0) return `k:${JSON.stringify(Object.fromEntries(keys.map((k) => [k, item[k]])))}`;
  }
  return `i:${index}`;
}

/** How the walk treats a value: a granular map, a granular list (set or keyed), or a leaf. */
type Shape = { kind: 'map'; map: JsonObject } | { kind: 'list'; list: unknown[] } | { kind: 'leaf' };

const shapeOf = (value: unknown, node: SchemaNode | undefined): Shape => {
  if (isObject(value) && !isAtomicMap(node)) return { kind: 'map', map: value };
  if (Array.isArray(value) && listKind(node) !== 'atomic') return { kind: 'list', list: value };
  return { kind: 'leaf' };
};

/** The fields an (applied) object sets, as SMD's ToFieldSet computes them. */
export function appliedFieldSet(obj: JsonObject, schema: SchemaNode | undefined): FieldSet {
  const set = new FieldSet();
  const visit = (value: unknown, node: SchemaNode | undefined, path: FieldPath): void => {
    const shape = shapeOf(value, node);
    if (shape.kind === 'map') {
      for (const [key, v] of Object.entries(shape.map)) {
        const child = childOf(node, key);
        const p = [...path, `f:${key}`];
        visit(v, child.node, p);
        if (v === null || (isObject(v) && Object.keys(v).length === 0) || !child.declared) set.add(p);
      }
    } else if (shape.kind === 'list') {
      shape.list.forEach((item, i) => {
        const p = [...path, itemElement(item, i, node)];
        visit(item, node?.items, p);
        set.add(p);
      });
    } else {
      set.add(path);
    }
  };
  visit(obj, schema, []);
  return set;
}

/** What changed between two versions, SMD-style: every node of an added/removed subtree, changed leaves. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareObjects(before: JsonObject, after: JsonObject, schema: SchemaNode | undefined): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const whole = (value: unknown, node: SchemaNode | undefined, path: FieldPath, into: FieldSet): void => {
    into.add(path);
    const shape = shapeOf(value, node);
    if (shape.kind === 'map') for (const [k, v] of Object.entries(shape.map)) {
      whole(v, childOf(node, k).node, [...path, `f:${k}`], into);
    }
    else if (shape.kind === 'list') {
      shape.list.forEach((item, i) => whole(item, node?.items, [...path, itemElement(item, i, node)], into));
    }
  };
  const visit = (a: unknown, b: unknown, node: SchemaNode | undefined, path: FieldPath): void => {
    if (a === undefined && b === undefined) return;
    if (a === undefined) return whole(b, node, path, out.added);
    if (b === undefined) return whole(a, node, path, out.removed);
    const [sa, sb] = [shapeOf(a, node), shapeOf(b, node)];
    if (sa.kind === 'map' && sb.kind === 'map') {
      const keys = new Set([...Object.keys(sa.map), ...Object.keys(sb.map)]);
      for (const k of keys) {
        visit(sa.map[k], sb.map[k], childOf(node, k).node, [...path, `f:${k}`]);
      }
    } else if (sa.kind === 'list' && sb.kind === 'list') {
      const index = (list: unknown[]) => new Map(list.map((item, i) => [itemElement(item, i, node), item]));
      const [ia, ib] = [index(sa.list), index(sb.list)];
      for (const element of new Set([...ia.keys(), ...ib.keys()])) {
        visit(ia.get(element), ib.get(element), node?.items, [...path, element]);
      }
    } else if (!deepEqual(a, b)) {
      out.modified.add(path);
    }
  };
  visit(before, after, schema, []);
  return out;
}

/** Where a path element points: a field of an object, or an item of a list. */
type Location = { parent: JsonObject; key: string } | { parent: unknown[]; index: number };

/** The position of one path element in `current`, when `current` has it. */
function step(current: unknown, element: string): Location | undefined {
  const body = element.slice(2);
  if (element.startsWith('f:')) return isObject(current) ? { parent: current, key: body } : undefined;
  if (!Array.isArray(current)) return undefined;
  const list: unknown[] = current;
  let index: number;
  if (element.startsWith('i:')) index = Number(body);
  else if (element.startsWith('v:')) index = list.findIndex((item) => deepEqual(item, JSON.parse(body)));
  else {
    const parsed: unknown = JSON.parse(body);
    const keys = isObject(parsed) ? parsed : {};
    index = list.findIndex((item) => isObject(item) && Object.entries(keys).every(([k, v]) => deepEqual(item[k], v)));
  }
  return index < 0 ? undefined : { parent: list, index };
}

/** Find the container holding the last element of `path` and that element's position in it. */
function locate(obj: JsonObject, path: FieldPath): Location | undefined {
  let found: Location | undefined;
  for (const element of path) {
    const current: unknown = found === undefined ? obj
      : 'key' in found ? found.parent[found.key] : found.parent[found.index];
    found = step(current, element);
    if (!found) return undefined;
  }
  return found;
}

/** Remove the field or list item at `path` from `obj` (mutated); absent paths are ignored. */
export function removeFieldPath(obj: JsonObject, path: FieldPath): void {
  const found = locate(obj, path);
  if (!found) return;
  if ('key' in found) delete found.parent[found.key];
  else found.parent.splice(found.index, 1);
}

/**
 * Sets of field paths, the currency of server-side apply (structured-merge-diff's
 * fieldpath.Set). A path is a list of elements in the `fieldsV1` key syntax:
 * `f:spec` (a field), `k:{"name":"web"}` (a list item by key), `v:"x"` (a set value),
 * `i:3` (an index). Sets convert to and from the `fieldsV1` trees stored in
 * `metadata.managedFields`, and print paths the way conflict messages show them
 * (`.spec.containers[name="web"].image`).
 */
import { asObject, isObject, type JsonObject } from '../api/json.js';

/** Path elements joined by this separator (never part of an element in practice). */
const SEP = '\u0001';

export type FieldPath = readonly string[];

export class FieldSet {
  private readonly paths: Set<string>;

  constructor(paths: Iterable<string> = []) {
    this.paths = new Set(paths);
  }

  static of(paths: Iterable<FieldPath>): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.add(p);
    return set;
  }

  add(path: FieldPath): void {
    if (path.length > 0) this.paths.add(path.join(SEP));
  }

  has(path: FieldPath): boolean {
    return this.paths.has(path.join(SEP));
  }

  get size(): number {
    return this.paths.size;
  }

  isEmpty(): boolean {
    return this.paths.size === 0;
  }

  union(other: FieldSet): FieldSet {
    return new FieldSet([...this.paths, ...other.paths]);
  }

  difference(other: FieldSet): FieldSet {
    return new FieldSet([...this.paths].filter((p) => !other.paths.has(p)));
  }

  intersection(other: FieldSet): FieldSet {
    return new FieldSet([...this.paths].filter((p) => other.paths.has(p)));
  }

  equals(other: FieldSet): boolean {
    return this.size === other.size && [...this.paths].every((p) => other.paths.has(p));
  }

  /** True when the set holds `path` itself or anything below it. */
  touches(path: FieldPath): boolean {
    const key = path.join(SEP);
    if (this.paths.has(key)) return true;
    const prefix = key + SEP;
    for (const p of this.paths) if (p.startsWith(prefix)) return true;
    return false;
  }

  toPaths(): FieldPath[] {
    return [...this.paths].sort().map((p) => p.split(SEP));
  }

  /** The `fieldsV1` tree: leaves are `{}`, a member with children carries `".": {}`. */
  toFieldsV1(): JsonObject {
    const root: JsonObject = {};
    const members = new Set<JsonObject>();
    for (const path of this.toPaths()) {
      let node = root;
      for (const element of path) {
        const existing = node[element];
        const next: JsonObject = isObject(existing) ? existing : {};
        node[element] = next;
        node = next;
      }
      members.add(node);
    }
    return sortTree(root, members);
  }

  /** Parse a stored `fieldsV1` tree. */
  static fromFieldsV1(tree: unknown): FieldSet {
    const set = new FieldSet();
    const visit = (node: unknown, path: string[]): void => {
      if (!isObject(node)) return;
      const keys = Object.keys(node);
      if (keys.length === 0 || keys.includes('.')) set.add(path);
      for (const key of keys) if (key !== '.') visit(node[key], [...path, key]);
    };
    visit(tree, []);
    return set;
  }
}

function sortTree(node: JsonObject, members: Set<JsonObject>): JsonObject {
  const keys = Object.keys(node).sort();
  const out: JsonObject = {};
  if (keys.length > 0 && members.has(node)) out['.'] = {};
  // Every node of the tree toFieldsV1 built is an object.
  for (const key of keys) out[key] = sortTree(asObject(node[key]), members);
  return out;
}

/** A path as conflict messages print it: `.spec.containers[name="web"].image`, `.metadata.finalizers[="x"]`. */
export function pathString(path: FieldPath): string {
  return path.map((element) => {
    const body = element.slice(2);
    switch (element.slice(0, 2)) {
      case 'f:': return `.${body}`;
      case 'k:': {
        const keys = asObject(JSON.parse(body));
        return `[${Object.entries(keys).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
      }
      case 'v:': return `[=${body}]`;
      case 'i:': return `[${body}]`;
      default: return element;
    }
  }).join('');
}

/**
 * What an update changed: the sorted dotted leaf paths whose values differ before and after a merge;
 * update_agent reports them as `changed` and writes nothing when there are none. Maps are walked key by
 * key, a list is one value compared as a whole by deep equality (so `["a b"]` is never `["a", "b"]`),
 * and an empty map that appears or disappears has no leaves, so it is no change.
 */
import { isJsonObject } from './json.js';

/** The sorted dotted paths whose leaves differ between `before` and `after`. */
export function changedPaths(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  const out = new Set<string>();
  walk('', before, after, out);
  return [...out].sort();
}

function walk(
  prefix: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  out: Set<string>,
): void {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    const b = before[key];
    const a = after[key];
    if (isJsonObject(b) && isJsonObject(a)) walk(path, b, a, out);
    else if (isJsonObject(a) && !had) walk(path, {}, a, out);
    else if (isJsonObject(b) && !has) walk(path, b, {}, out);
    else if (had !== has || !jsonEqual(b, a)) out.add(path);
  }
}

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => jsonEqual(item, b[i]))
    );
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return false;
}

/**
 * Plain-JSON helpers of the sandbox API server. Every object the sandbox stores or serves
 * is plain JSON (no classes, no undefined values), so structural equality, cloning and
 * path access can be written once here and shared by the store, the patchers and
 * server-side apply.
 */

/** A JSON object (a Kubernetes object, or any map inside one). */
export type JsonObject = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a list whose every item is a string. */
export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** `value` when it is a JSON object, else a fresh empty one, so `asObject(x).field` is always safe. */
export const asObject = (value: unknown): JsonObject => (isObject(value) ? value : {});

/** `value` when it is a string (even ''), else `fallback`. */
export const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/** `value` when it is a non-empty string, else undefined ('' reads as absent). */
export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** `value` when it is a non-empty string, else `fallback`. */
export const nonEmptyStringOr = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value !== '' ? value : fallback;

/** `value` when it is a number (any, NaN included), else `fallback`. */
export const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

/** `value` when it is an array, else an empty one. */
export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The strings of `value` when it is an array (other items dropped), else an empty list. */
export const stringsOf = (value: unknown): string[] => asList(value).filter((v): v is string => typeof v === 'string');

/** Deep structural equality of two JSON values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  // Both are objects here (same typeof, neither null); a list and a map are not equal.
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual(a[k], b[k])) return false;
  }
  return true;
}

/** A deep copy of a JSON value. */
export function clone<T>(value: T): T {
  // safe: a JSON round trip of a JSON value has the value's own shape.
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The object at `obj[key]`, created empty when absent or not an object. */
export function child(obj: JsonObject, key: string): JsonObject {
  const existing = obj[key];
  if (isObject(existing)) return existing;
  const created: JsonObject = {};
  obj[key] = created;
  return created;
}

/** The value at a dotted path of plain keys (`spec.chartRef.name`), or undefined. */
export function getPath(obj: unknown, path: readonly string[]): unknown {
  let current: unknown = obj;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** The object's metadata map (always an object; created when absent). */
export function metaOf(obj: JsonObject): JsonObject {
  return child(obj, 'metadata');
}

/** The object's metadata for reading (never created; works on frozen objects). */
export function readMeta(obj: JsonObject): JsonObject {
  return isObject(obj.metadata) ? obj.metadata : {};
}

/** A string field of metadata, or '' when absent. */
export function metaString(obj: JsonObject, key: string): string {
  const meta = obj.metadata;
  if (!isObject(meta)) return '';
  const value = meta[key];
  return typeof value === 'string' ? value : '';
}

/** The JSON type name Kubernetes validation messages use for a value. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The current time as Kubernetes serialises metav1.Time (RFC 3339, whole seconds, UTC). */
export function nowTimestamp(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Narrowing of untyped JSON (Kubernetes objects, A2A messages) to the few shapes the product reads.
 * One module so that every reader means the same by "a string" or "an object": each helper returns a
 * value of the named type or the stated fallback and never throws, so a malformed field reads as absent.
 * Pure: no I/O.
 */

/** A JSON object: string keys, values still unknown. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `v` when it is a JSON object, else a fresh empty one, so `asObject(x).field` is always safe. */
export const asObject = (v: unknown): JsonObject => (isJsonObject(v) ? v : {});

/** `v` when it is a non-empty string, else undefined ('' reads as absent). */
export const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `v` when it is a string (even ''), else undefined: for fields where '' and absent differ. */
export const stringField = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The string entries of `v` when it is an object (a label or annotation map), others dropped; else {}. */
export const stringMap = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(asObject(v)).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** `v` when it is a string (even ''), else `fallback`. */
export const stringOr = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);

/** `v` when it is a finite number, else `fallback`. */
export const finiteNumberOr = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

/** `v` when it is an integer, else undefined. */
export const wholeNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : undefined;

/** `v` when it is an array, else an empty one. */
export const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The JSON objects of `v` when it is an array (other items dropped), else an empty list. */
export const objectList = (v: unknown): JsonObject[] => asList(v).filter(isJsonObject);

/** The strings of `v` when it is an array (other items dropped), else undefined. */
export const stringList = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined;

/**
 * JSON null in an operation's input, one rule for REST bodies and MCP arguments: null means "not
 * given", as the Go service's decoder and its MCP argument getters read it, except for the safety
 * switches and preconditions, which keep it for the schema to refuse. A `"dryRun": null`,
 * `"mode": null` or `"version": null` must be a 400, never a real write, the default mode, or a
 * write without its precondition.
 */
import { z } from 'zod';
import { isJsonObject } from '../../core/json.js';

/** String fields that are preconditions: null must not read as "no precondition". */
const PRECONDITIONS = ['version', 'resourceVersion'];

/**
 * The top-level fields of an input schema whose null is refused: the Boolean and number ones
 * (dryRun, force, wait, revision …), the ones with a fixed set of values (mode) and the
 * preconditions.
 */
export function nullRefusedFields(schema: z.ZodObject): ReadonlySet<string> {
  const out = new Set<string>();
  for (const [name, field] of Object.entries(schema.shape)) {
    let inner: z.core.$ZodType = field;
    while (inner instanceof z.core.$ZodOptional || inner instanceof z.core.$ZodDefault) {
      inner = inner._zod.def.innerType;
    }
    const type = inner._zod.def.type;
    if (type === 'boolean' || type === 'number' || type === 'enum' || PRECONDITIONS.includes(name)) out.add(name);
  }
  return out;
}

/**
 * `object` without its null-valued keys, at every depth of nested objects, but for the top-level
 * keys in `keep`; inside arrays a null stays (the schema then names the element).
 */
export function withoutNulls(
  object: Record<string, unknown>, keep: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === null && !keep.has(key)) continue;
    // defineProperty, not assignment: a `__proto__` key stays a plain (and then refused) field.
    Object.defineProperty(out, key, {
      value: isJsonObject(value) ? withoutNulls(value) : Array.isArray(value) ? value.map(nullsOut) : value,
      enumerable: true, writable: true, configurable: true,
    });
  }
  return out;
}

const nullsOut = (value: unknown): unknown => (isJsonObject(value) ? withoutNulls(value) : value);

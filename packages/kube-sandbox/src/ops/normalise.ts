/**
 * What the server does to every object before storing it: prune unknown fields and fill defaults,
 * fold write-only fields (Secret stringData), validate. Unknown fields follow `fieldValidation` (Strict
 * 400, Warn drops with a warning, Ignore drops). Error forms are the real server's: a custom resource's
 * violations are one 422 with every cause; a built-in kind's type mismatch is Go's 400 decoding error.
 */
import type { FieldError } from '../api/field-errors.js';
import { isObject, type JsonObject } from '../api/json.js';
import { validateObjectMeta } from '../api/object-meta.js';
import { statusErrors } from '../api/status.js';
import { applyStructuralSchema } from '../resources/structural.js';
import { groupKind, type ResourceDef } from '../resources/resource-def.js';
import type { WriteOptions } from './op-options.js';

const GO_TYPES: Record<string, string> =
  { string: 'string', integer: 'int64', number: 'float64', boolean: 'bool', object: 'map[string]interface {}',
    array: '[]interface {}' };

function cannotHandle(def: ResourceDef, why: string): Error {
  return statusErrors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${why}`);
}

/** Normalise and validate `obj` (mutated) for storage under `def`. Throws 400/422 StatusErrors. */
export function normalise(def: ResourceDef, obj: JsonObject, opts: WriteOptions): void {
  const result = applyStructuralSchema(def.schema, obj);
  if (result.pruned.length > 0) {
    const mode = opts.fieldValidation ?? 'Warn';
    if (mode === 'Strict') {
      throw cannotHandle(def, `strict decoding error: ${result.pruned.map((p) => `unknown field "${p}"`).join(', ')}`);
    }
    if (mode === 'Warn') for (const p of result.pruned) opts.warnings?.push(`unknown field "${p}"`);
  }
  const typeErrors = result.errors.filter((e) => e.type === 'FieldValueTypeInvalid');
  if (!def.custom && typeErrors.length > 0) {
    const first = typeErrors[0]!;
    const expected = /must be of type ([a-z,]+)/.exec(first.detail ?? '')?.[1] ?? 'string';
    throw cannotHandle(def, `json: cannot unmarshal ${String(first.value)} into Go struct field ` +
      `${def.kind}.${first.field} of type ${GO_TYPES[expected] ?? expected}`);
  }
  def.prepare?.(obj);
  dropEmptyMetadata(obj);
  const errors: FieldError[] = [
    ...validateObjectMeta(isObject(obj.metadata) ? obj.metadata : {}, def.nameRule),
    ...result.errors,
    ...(def.validate?.(obj) ?? []),
  ];
  if (errors.length > 0) {
    const name = isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
    throw statusErrors.invalid(groupKind(def), name, errors);
  }
}

/** ObjectMeta's collections, which Go's `omitempty` leaves out of the stored object when empty. */
const OMITTED_WHEN_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** Drops empty label and annotation maps and finalizer and owner lists, as the API server stores ObjectMeta. */
function dropEmptyMetadata(obj: JsonObject): void {
  if (!isObject(obj.metadata)) return;
  const meta = obj.metadata;
  for (const key of OMITTED_WHEN_EMPTY) {
    const value = meta[key];
    if ((Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0)) {
      delete meta[key];
    }
  }
}

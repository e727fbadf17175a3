/**
 * PATCH in all four content types. JSON, merge and strategic merge patches are applied to
 * the stored object and the result goes through the ordinary update path (so a patch that
 * sets metadata.resourceVersion is a precondition, and status behind a subresource is
 * untouched). Server-side apply merges with field ownership and may create the object.
 * Strategic merge patch is refused for custom resources with 415, as for real CRDs.
 */
import { clone, isObject, metaOf, type JsonObject } from '../api/json.js';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { statusErrors, statusForCode } from '../api/status.js';
import { serverSideApply } from '../fields/apply.js';
import { readManagedFields, type WriteIdentity, type WriteScope } from '../fields/managed-fields.js';
import { applyJsonPatch, PatchApplyError } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { strategicMerge } from '../patch/strategic-merge.js';
import { apiVersionOf, groupKind, groupResource, type ResourceDef } from '../resources/resource-def.js';
import { insertObject } from './create.js';
import { decodeObject } from './decode.js';
import { commitUpdate } from './update.js';
import { PATCH_CONTENT_TYPES, type OpsEnv, type PatchType, type WriteOptions } from './op-options.js';

/** Options of a patch beyond the write options. */
export interface PatchOptions extends WriteOptions {
  /** Apply only: take fields from other managers instead of failing with a conflict. */
  force?: boolean;
  subresource?: 'status';
}

/** The outcome of a patch: the stored object, and whether server-side apply created it. */
export interface PatchResult {
  object: JsonObject;
  created: boolean;
}

/** How Go's encoding/json names a JSON value's type in an unmarshal error. */
function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null || typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** Validate the patch options as the real server does (422 on PatchOptions.meta.k8s.io). */
export function validatePatchOptions(type: PatchType, opts: PatchOptions): void {
  const errors: FieldError[] = [];
  if (type !== 'apply' && opts.force !== undefined) {
    errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
  }
  if (type === 'apply' && !opts.fieldManager) {
    errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  }
  if (opts.fieldManager && opts.fieldManager.length > 128) errors.push(fieldError.tooLong('fieldManager', 128));
  if (errors.length > 0) throw statusErrors.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', errors);
}

function patched(def: ResourceDef, old: JsonObject, type: PatchType, body: unknown): unknown {
  try {
    // A JSON patch that is not a list of operations cannot be decoded: 400, as a malformed body is.
    if (type === 'json' && !Array.isArray(body)) {
      throw statusErrors.badRequest(`json: cannot unmarshal ${goJsonType(body)} into Go value of type jsonpatch.Patch`);
    }
    if (type === 'json') return applyJsonPatch(old, body);
    if (!isObject(body)) {
      throw statusErrors.badRequest(`json: cannot unmarshal ${goJsonType(body)} into Go value of type ` +
        `map[string]interface {}`);
    }
    if (type === 'merge') return applyMergePatch(old, body);
    return strategicMerge(old, body, def.schema);
  } catch (err) {
    // The real server reports a patch that does not apply as 422 with the patch library's text.
    if (err instanceof PatchApplyError) throw statusForCode(422, err.message);
    throw err;
  }
}

/** PATCH one object (or its status) with any patch type. */
export function patchObject(
  env: OpsEnv, def: ResourceDef, namespace: string, name: string, type: PatchType, body: unknown,
  opts: PatchOptions = {},
): PatchResult {
  validatePatchOptions(type, opts);
  if (type === 'apply') return applyObject(env, def, namespace, name, body, opts);
  if (type === 'strategic' && def.custom) {
    throw statusErrors.unsupportedMediaType([
      PATCH_CONTENT_TYPES.json, PATCH_CONTENT_TYPES.merge, PATCH_CONTENT_TYPES.apply,
    ]);
  }
  const old = env.objects.get(def, namespace, name);
  if (!old) throw statusErrors.notFound(groupResource(def), name);
  const candidate = decodeObject(def, patched(def, old, type, body), namespace, name);
  // metadata.uid is immutable (ObjectMeta update validation): a patch that changes it is refused.
  const uid = metaOf(candidate).uid;
  if (typeof uid === 'string' && uid !== '' && uid !== metaOf(old).uid) {
    throw statusErrors.invalid(groupKind(def), name,
      [fieldError.invalid('metadata.uid', uid, 'field is immutable')]);
  }
  const object = commitUpdate(env, { def, old, candidate, scope: opts.subresource === 'status' ? 'status' : 'main',
    opts });
  return { object, created: false };
}

/** Server-side apply of one object (or its status). */
export function applyObject(
  env: OpsEnv, def: ResourceDef, namespace: string, name: string, body: unknown, opts: PatchOptions,
): PatchResult {
  validatePatchOptions('apply', opts);
  const scope: WriteScope = opts.subresource === 'status' ? 'status' : 'main';
  const config = decodeObject(def, body, namespace, name);
  const meta = metaOf(config);
  for (const key of ['uid', 'creationTimestamp', 'generation', 'managedFields', 'selfLink']) delete meta[key];
  if (scope === 'main' && def.statusSubresource) delete config.status;
  const id: WriteIdentity = {
    manager: opts.fieldManager!, apiVersion: apiVersionOf(def), scope, schema: def.schema,
    hasStatusSubresource: def.statusSubresource,
  };
  const old = env.objects.get(def, namespace, name);
  if (!old) {
    if (scope === 'status') throw statusErrors.notFound(groupResource(def), name);
    const outcome = serverSideApply(undefined, config, [], id, Boolean(opts.force));
    return { object: insertObject(env, def, clone(outcome.merged), opts, () => outcome.entries), created: true };
  }
  const outcome = serverSideApply(old, config, readManagedFields(old), id, Boolean(opts.force));
  const object = commitUpdate(env, {
    def, old, candidate: clone(outcome.merged), scope, opts, managed: outcome.entries,
  });
  return { object, created: false };
}

/**
 * The `scale` subresource of deployments and replica sets (autoscaling/v1 Scale), what
 * `kubectl scale` reads and patches: the Scale is a view of the object (spec.replicas,
 * status.replicas and the selector as a string), and writing it changes only the
 * object's spec.replicas, through the ordinary update path (resourceVersion
 * precondition, managedFields, generation, watch events).
 */
import { clone, isObject, metaOf, type JsonObject } from '../api/json.js';
import { fieldError } from '../api/field-errors.js';
import { statusErrors, statusForCode } from '../api/status.js';
import { applyJsonPatch, PatchApplyError } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { groupResource, type ResourceDef } from '../resources/resource-def.js';
import { commitUpdate } from './update.js';
import { PATCH_CONTENT_TYPES, type OpsEnv, type PatchType, type WriteOptions } from './op-options.js';

const SCALE_GK = { group: 'autoscaling', kind: 'Scale' };

/** A label selector as its string form (`app=web,tier in (a,b)`). */
export function selectorString(selector: unknown): string {
  if (!isObject(selector)) return '';
  const parts = Object.entries(isObject(selector.matchLabels) ? selector.matchLabels : {}).map(([k, v]) =>
    `${k}=${String(v)}`);
  for (const e of Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObject) : []) {
    const values = Array.isArray(e.values) ? e.values.map(String).join(',') : '';
    const op = String(e.operator ?? '');
    if (op === 'Exists') parts.push(String(e.key));
    else if (op === 'DoesNotExist') parts.push(`!${String(e.key)}`);
    else parts.push(`${String(e.key)} ${op === 'NotIn' ? 'notin' : 'in'} (${values})`);
  }
  return parts.join(',');
}

/** The Scale view of a stored deployment or replica set. */
export function scaleOf(obj: JsonObject): JsonObject {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const spec = isObject(obj.spec) ? obj.spec : {};
  const status = isObject(obj.status) ? obj.status : {};
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
    status: {
      replicas: typeof status.replicas === 'number' ? status.replicas : 0, selector: selectorString(spec.selector),
    },
  };
}

function stored(env: OpsEnv, def: ResourceDef, namespace: string, name: string): JsonObject {
  const obj = env.objects.get(def, namespace, name);
  if (!obj) throw statusErrors.notFound(groupResource(def), name);
  return obj;
}

/** GET …/scale */
export function readScale(env: OpsEnv, def: ResourceDef, namespace: string, name: string): JsonObject {
  return scaleOf(stored(env, def, namespace, name));
}

/** PUT …/scale: the body is a Scale; only spec.replicas (and a resourceVersion precondition) count. */
export function writeScale(
  env: OpsEnv, def: ResourceDef, namespace: string, name: string, body: unknown, opts: WriteOptions,
): JsonObject {
  const old = stored(env, def, namespace, name);
  const scale = isObject(body) ? body : {};
  const replicas = isObject(scale.spec) ? scale.spec.replicas : undefined;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw statusErrors.invalid(SCALE_GK, name, [
      fieldError.invalid('spec.replicas', replicas ?? null, 'must be greater than or equal to 0'),
    ]);
  }
  const candidate = clone(old);
  candidate.spec = { ...(isObject(candidate.spec) ? candidate.spec : {}), replicas };
  const wantedRv = isObject(scale.metadata) ? scale.metadata.resourceVersion : undefined;
  if (typeof wantedRv === 'string' && wantedRv !== '') metaOf(candidate).resourceVersion = wantedRv;
  return scaleOf(commitUpdate(env, { def, old, candidate, scope: 'main', opts }));
}

/** PATCH …/scale with a JSON or merge patch (strategic merge reads as merge: Scale has no lists). */
export function patchScale(
  env: OpsEnv, def: ResourceDef, namespace: string, name: string, type: PatchType, body: unknown, opts: WriteOptions,
): JsonObject {
  if (type === 'apply') {
    throw statusErrors.unsupportedMediaType([PATCH_CONTENT_TYPES.json, PATCH_CONTENT_TYPES.merge,
      PATCH_CONTENT_TYPES.strategic]);
  }
  const current = readScale(env, def, namespace, name);
  let next: unknown;
  try {
    next = type === 'json' ? applyJsonPatch(current, body) : applyMergePatch(current, body);
  } catch (err) {
    if (err instanceof PatchApplyError) throw statusForCode(422, err.message);
    throw err;
  }
  return writeScale(env, def, namespace, name, next, opts);
}

/**
 * The commit path every change to an existing object takes (PUT, every patch type,
 * server-side apply, `/status` writes): optimistic concurrency on resourceVersion, the
 * status-subresource split (main writes keep the stored status, status writes change
 * nothing else), immutable metadata, normalisation, the finalizer rules of objects being
 * deleted, generation bumps on spec changes only, managedFields, and no-op detection (an
 * unchanged object is not written and keeps its resourceVersion).
 */
import { clone, deepEqual, isObject, metaOf, readMeta, type JsonObject } from '../api/json.js';
import { fieldError } from '../api/field-errors.js';
import { statusErrors } from '../api/status.js';
import {
  encodeManagedFields, managerFromUserAgent, readManagedFields, recordUpdate, type ManagerEntry, type WriteScope,
} from '../fields/managed-fields.js';
import {
  apiVersionOf, groupKind, groupResource, tracksGeneration, type ResourceDef,
} from '../resources/resource-def.js';
import { decodeObject } from './decode.js';
import { normalise } from './normalise.js';
import type { OpsEnv, WriteOptions } from './op-options.js';
import { afterRemoval } from './namespace-lifecycle.js';

/** One change to commit. `candidate` is a private copy the pipeline may change. */
export interface UpdateRequest {
  def: ResourceDef;
  /** The stored object being changed. */
  old: JsonObject;
  candidate: JsonObject;
  scope: WriteScope;
  opts: WriteOptions;
  /** Precomputed entries (server-side apply); otherwise an Update record of this write. */
  managed?: ManagerEntry[];
}

const IMMUTABLE_META = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'selfLink'];

/** The part of an object whose change bumps metadata.generation. */
function generationView(obj: JsonObject, def: ResourceDef): JsonObject {
  const view: JsonObject = { ...obj };
  delete view.metadata;
  if (def.statusSubresource) delete view.status;
  return view;
}

function withoutVolatile(obj: JsonObject): JsonObject {
  const meta: JsonObject = { ...readMeta(obj) };
  delete meta.resourceVersion;
  delete meta.managedFields;
  return { ...obj, metadata: meta };
}

function timeless(managedFields: unknown): unknown[] {
  return (Array.isArray(managedFields) ? managedFields : []).map((e) => (isObject(e) ? { ...e, time: undefined } : e));
}

function finalizers(obj: JsonObject): string[] {
  const list = isObject(obj.metadata) ? obj.metadata.finalizers : undefined;
  return Array.isArray(list) ? list.map(String) : [];
}

/** A resourceVersion in the candidate is a precondition: it must be the stored one (409 otherwise). */
function checkResourceVersion(def: ResourceDef, old: JsonObject, candidate: JsonObject): void {
  const oldMeta = readMeta(old);
  const wantedRv = isObject(candidate.metadata) ? candidate.metadata.resourceVersion : undefined;
  if (typeof wantedRv === 'string' && wantedRv !== '' && wantedRv !== oldMeta.resourceVersion) {
    throw statusErrors.conflict(groupResource(def), String(oldMeta.name));
  }
}

/**
 * The candidate as the next version of `old`, before the checks: a status write changes the status
 * only, a main write keeps the stored status of a kind with a status subresource, and the immutable
 * metadata and the resourceVersion are the stored ones. Pure: `candidate` is a private copy.
 */
export function nextVersion(def: ResourceDef, old: JsonObject, candidate: JsonObject, scope: WriteScope): JsonObject {
  const oldMeta = readMeta(old);
  let next: JsonObject;
  if (scope === 'status') {
    next = clone(old);
    if (candidate.status === undefined) delete next.status;
    else next.status = clone(candidate.status);
  } else {
    next = clone(candidate);
    if (def.statusSubresource) {
      if (old.status === undefined) delete next.status;
      else next.status = clone(old.status);
    }
  }
  const meta = metaOf(next);
  for (const key of IMMUTABLE_META) {
    if (oldMeta[key] === undefined) delete meta[key];
    else meta[key] = clone(oldMeta[key]);
  }
  meta.resourceVersion = oldMeta.resourceVersion;
  return next;
}

/** The kind's update validation (main writes), then: an object being deleted takes no new finalizer. */
function checkUpdate(def: ResourceDef, old: JsonObject, next: JsonObject, scope: WriteScope): void {
  const name = String(readMeta(old).name);
  const updateErrors = scope === 'main' ? def.validateUpdate?.(next, old) ?? [] : [];
  if (updateErrors.length > 0) throw statusErrors.invalid(groupKind(def), name, updateErrors);
  if (!readMeta(old).deletionTimestamp) return;
  const added = finalizers(next).filter((f) => !finalizers(old).includes(f));
  if (added.length > 0) {
    throw statusErrors.invalid(groupKind(def), name, [fieldError.forbidden('metadata.finalizers',
      `no new finalizers can be added if the object is being deleted, found new finalizers ` +
      `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`)]);
  }
}

/**
 * The generation `next` gets (undefined: none). A client cannot set generation; only kinds that track
 * it bump it, on a change of the desired state; other kinds keep the stored one.
 */
export function nextGeneration(def: ResourceDef, old: JsonObject, next: JsonObject): unknown {
  const oldGeneration = readMeta(old).generation;
  if (tracksGeneration(def)) {
    const generation = typeof oldGeneration === 'number' ? oldGeneration : 1;
    return deepEqual(generationView(old, def), generationView(next, def)) ? generation : generation + 1;
  }
  return oldGeneration;
}

/**
 * The managedFields of the write: the precomputed ones (apply), else an Update record of this write
 * over the entries the candidate sent when it sent changed ones, over the stored ones otherwise.
 */
function managedEntries(req: UpdateRequest, next: JsonObject): ManagerEntry[] {
  const { def, old, candidate, scope, opts } = req;
  if (req.managed !== undefined) return req.managed;
  const sent =
    isObject(candidate.metadata) && Array.isArray(candidate.metadata.managedFields)
      ? candidate.metadata.managedFields
      : [];
  const base =
    sent.length > 0 && !deepEqual(sent, readMeta(old).managedFields) ? readManagedFields(candidate)
      : readManagedFields(old);
  return recordUpdate(base, old, next, {
    manager: opts.fieldManager || managerFromUserAgent(opts.userAgent), apiVersion: apiVersionOf(def),
    scope, schema: def.schema, hasStatusSubresource: def.statusSubresource,
  });
}

/** What a commit does with the finished next version. */
export type CommitAction = 'unchanged' | 'dry-run' | 'remove' | 'put';

/**
 * An unchanged object is not written (for apply, a change of ownership alone is); a dry run stores
 * nothing; an object goes once its last finalizer does, unless a grace period is still running (a
 * pod the kubelet has not yet stopped).
 */
export function commitAction(old: JsonObject, next: JsonObject, applied: boolean, dryRun: boolean): CommitAction {
  const meta = readMeta(next);
  if (deepEqual(withoutVolatile(old), withoutVolatile(next))) {
    if (!applied || deepEqual(timeless(readMeta(old).managedFields), timeless(meta.managedFields))) return 'unchanged';
  }
  const graceLeft = typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds > 0;
  const removeNow = Boolean(meta.deletionTimestamp) && finalizers(next).length === 0 && !graceLeft;
  if (dryRun) return 'dry-run';
  return removeNow ? 'remove' : 'put';
}

/** Build the next version of `old` from `candidate` and store it. Returns the stored (or dry-run) object. */
export function commitUpdate(env: OpsEnv, req: UpdateRequest): JsonObject {
  const { def, old, candidate, scope, opts } = req;
  checkResourceVersion(def, old, candidate);
  const next = nextVersion(def, old, candidate, scope);
  normalise(def, next, opts);
  checkUpdate(def, old, next, scope);
  const meta = metaOf(next);
  const generation = nextGeneration(def, old, next);
  if (generation === undefined) delete meta.generation;
  else meta.generation = generation;
  const encoded = encodeManagedFields(managedEntries(req, next));
  if (encoded.length > 0) meta.managedFields = encoded;
  else delete meta.managedFields;

  switch (commitAction(old, next, req.managed !== undefined, opts.dryRun === true)) {
    case 'unchanged': return old;
    case 'dry-run': return next;
    case 'remove': {
      const gone = env.objects.remove(def, next);
      afterRemoval(env, def, gone);
      return gone;
    }
    case 'put': return env.objects.put(def, next, 'MODIFIED', old);
  }
}

/**
 * PUT: replace an object (or, with scope `status`, its status). A custom resource's
 * strategy allows no unconditional update, so a PUT to one (main or status) must carry
 * metadata.resourceVersion, or it is 422 in the generic store's words, which name the
 * resource, not the kind; built-in kinds take a PUT without one as a last-writer-wins
 * replace.
 */
export function updateObject(
  env: OpsEnv, def: ResourceDef, namespace: string, name: string, body: unknown, opts: WriteOptions,
  scope: WriteScope = 'main',
): JsonObject {
  const candidate = decodeObject(def, body, namespace, name);
  const old = env.objects.get(def, namespace, name);
  if (!old) throw statusErrors.notFound(groupResource(def), name);
  // A uid in the body is a precondition: the object replaced must be that one (another object of the
  // same name, made after a delete, is not), answered 409 as the API server's storage answers it.
  const sentUid = readMeta(candidate).uid;
  if (typeof sentUid === 'string' && sentUid !== '' && sentUid !== readMeta(old).uid) {
    throw statusErrors.conflict(groupResource(def), name,
      `Precondition failed: UID in precondition: ${sentUid}, UID in object meta: ${String(readMeta(old).uid)}`);
  }
  const sentRv = readMeta(candidate).resourceVersion;
  if (def.custom && (sentRv === undefined || sentRv === '')) {
    throw statusErrors.invalid({ group: def.group, kind: def.resource }, name, [
      { ...fieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update'), shown: '0x0' },
    ]);
  }
  return commitUpdate(env, { def, old, candidate, scope, opts });
}

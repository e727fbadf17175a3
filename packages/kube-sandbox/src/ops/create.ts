/**
 * Creating an object: generateName, the namespace lifecycle checks (the namespace must
 * exist and not be terminating), dropping what a client may not set on create (status
 * behind a status subresource, server-owned metadata), normalisation, the AlreadyExists
 * check, and the server-stamped metadata: uid, creationTimestamp, generation 1 (kinds that
 * track it),
 * resourceVersion and managedFields.
 */
import { randomUUID } from 'node:crypto';
import { metaOf, nowTimestamp, type JsonObject } from '../api/json.js';
import { groupResourceString, StatusError, statusErrors } from '../api/status.js';
import { encodeManagedFields, recordUpdate, managerFromUserAgent,
  type ManagerEntry } from '../fields/managed-fields.js';
import { namespaces } from '../resources/builtin-core.js';
import { apiVersionOf, groupResource, tracksGeneration, type ResourceDef } from '../resources/resource-def.js';
import { decodeObject } from './decode.js';
import { normalise } from './normalise.js';
import type { OpsEnv, WriteOptions } from './op-options.js';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const SERVER_META = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'selfLink', 'managedFields'];

function randomSuffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return out;
}

/** Refuse writes into a namespace that does not exist or is being deleted. */
export function checkNamespace(env: OpsEnv, def: ResourceDef, obj: JsonObject): void {
  if (!def.namespaced) return;
  const meta = metaOf(obj);
  const namespace = String(meta.namespace ?? '');
  if (!namespace) {
    throw statusErrors.badRequest('the namespace of a namespaced object is required; set metadata.namespace');
  }
  const ns = env.objects.get(namespaces, '', namespace);
  if (!ns) throw statusErrors.notFound(groupResource(namespaces), namespace);
  if (metaOf(ns).deletionTimestamp) {
    const name = String(meta.name ?? '');
    throw statusErrors.forbidden(`${groupResourceString(groupResource(def))} "${name}"`,
      `unable to create new content in namespace ${namespace} because it is ` +
      `being terminated`, groupResource(def), name);
  }
}

/**
 * Store a new object built from a decoded body. `managed` computes the managedFields
 * entries of the normalised object (an Update record by default, an Apply record for
 * server-side apply).
 */
export function insertObject(
  env: OpsEnv, def: ResourceDef, obj: JsonObject, opts: WriteOptions,
  managed?: (normalised: JsonObject) => ManagerEntry[],
): JsonObject {
  const meta = metaOf(obj);
  for (const key of SERVER_META) delete meta[key];
  if (!meta.name && typeof meta.generateName === 'string' && meta.generateName) {
    do meta.name = `${meta.generateName}${randomSuffix()}`;
    while (env.objects.get(def, String(meta.namespace ?? ''), String(meta.name)));
  }
  if (def.statusSubresource) {
    delete obj.status;
    if (def.initialStatus) obj.status = def.initialStatus();
  }
  checkNamespace(env, def, obj);
  normalise(def, obj, opts);
  const name = String(meta.name);
  if (env.objects.get(def, String(meta.namespace ?? ''), name)) {
    throw statusErrors.alreadyExists(groupResource(def), name);
  }

  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  if (tracksGeneration(def)) meta.generation = 1;
  const entries = managed
    ? managed(obj)
    : recordUpdate([], {}, obj, {
        manager: opts.fieldManager || managerFromUserAgent(opts.userAgent), apiVersion: apiVersionOf(def),
        scope: 'main', schema: def.schema, hasStatusSubresource: def.statusSubresource,
      });
  const encoded = encodeManagedFields(entries);
  if (encoded.length > 0) meta.managedFields = encoded;
  if (opts.dryRun) return obj;
  return env.objects.put(def, obj, 'ADDED');
}

/** POST: create an object in `namespace` ('' for cluster-scoped or to take the body's). */
export function createObject(
  env: OpsEnv, def: ResourceDef, namespace: string, body: unknown, opts: WriteOptions,
): JsonObject {
  const obj = decodeObject(def, body, namespace);
  // As the API server's storage answers it (an internal error, kept so by its maintainers): a client
  // that creates what it read before, resourceVersion and all, learns it here, not on a real cluster.
  const resourceVersion = metaOf(obj).resourceVersion;
  if (resourceVersion !== undefined && resourceVersion !== '' && resourceVersion !== '0') {
    const why = 'resourceVersion should not be set on objects to be created';
    throw new StatusError(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] });
  }
  return insertObject(env, def, obj, opts);
}

/**
 * Checks every object body passes before any operation uses it, with the real server's
 * BadRequest texts: it is a JSON object, its apiVersion and kind are those of the
 * endpoint, and its namespace and name agree with the URL. Returns a private deep copy
 * the operation may change freely.
 */
import { clone, isObject, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import { apiVersionOf, type ResourceDef } from '../resources/resource-def.js';

/** Validate and copy a request body for `def`; `urlName` is set for update, patch and apply. */
export function decodeObject(def: ResourceDef, body: unknown, urlNamespace: string, urlName?: string): JsonObject {
  if (!isObject(body)) throw statusErrors.badRequest(`Object 'Kind' is missing in '${JSON.stringify(body) ?? ''}'`);
  const obj = clone(body);
  const expected = apiVersionOf(def);
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = expected;
  else if (obj.apiVersion !== expected) {
    throw statusErrors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the ` +
      `expected API version (${expected})`);
  }
  if (obj.kind === undefined || obj.kind === '') obj.kind = def.kind;
  else if (obj.kind !== def.kind) {
    throw statusErrors.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected ` +
      `kind (${def.kind})`);
  }
  if (obj.metadata === undefined) obj.metadata = {};
  if (!isObject(obj.metadata)) {
    throw statusErrors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ` +
      `metadata must be an object`);
  }
  const meta = obj.metadata;
  if (def.namespaced) {
    const namespace = typeof meta.namespace === 'string' ? meta.namespace : '';
    if (!namespace) meta.namespace = urlNamespace;
    else if (urlNamespace && namespace !== urlNamespace) {
      throw statusErrors.badRequest('the namespace of the provided object does not match the namespace ' +
        'sent on the request');
    }
  } else {
    delete meta.namespace;
  }
  if (urlName !== undefined) {
    const name = typeof meta.name === 'string' ? meta.name : '';
    if (!name) meta.name = urlName;
    else if (name !== urlName) {
      throw statusErrors.badRequest(`the name of the object (${name}) does not match the name on the URL (${urlName})`);
    }
  }
  return obj;
}

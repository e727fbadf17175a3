/**
 * The one narrowing of what the Kubernetes API answers into the port's KubeObject: JSON with a `metadata.name`
 * string, its apiVersion and kind defaulted from the resource type asked for (list items carry none). The
 * adapters call it where an answer enters the product, so no reader downstream casts what the API returned.
 */
import { isJsonObject, type JsonObject } from '../core/json.js';
import type { Gvr, KubeObject, ObjectMeta } from '../service/ports.js';

/** True for JSON carrying what every reader of a KubeObject relies on: `metadata.name`, a string. */
export function isKubeObject(value: unknown): value is KubeObject {
  return isJsonObject(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string'
    && hasMeta(value);
}

function hasMeta(value: JsonObject): value is JsonObject & { metadata: ObjectMeta } {
  return isJsonObject(value.metadata) && typeof value.metadata.name === 'string';
}

/** `value` as a KubeObject of the type `gvr` (apiVersion and kind filled in when absent), else undefined. */
export function kubeObjectOf(value: unknown, gvr: Pick<Gvr, 'group' | 'version' | 'kind'>): KubeObject | undefined {
  if (!isJsonObject(value) || !hasMeta(value)) return undefined;
  if (typeof value.apiVersion !== 'string') value.apiVersion = gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
  if (typeof value.kind !== 'string') value.kind = gvr.kind;
  return isKubeObject(value) ? value : undefined;
}

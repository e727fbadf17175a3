/**
 * JSON Merge Patch (RFC 7386, `application/merge-patch+json`): objects merge key by key,
 * `null` deletes, everything else (lists included) replaces. This is what kubectl apply
 * and `kubectl patch --type merge` send for custom resources.
 */
import { clone, isObject, type JsonObject } from '../api/json.js';

/** Apply a merge patch to `target`, returning a new value. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

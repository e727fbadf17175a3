/**
 * The metadata every typed view of a Kubernetes object shares, narrowed once from untyped JSON: a field of the
 * wrong type reads as absent (labels and annotations keep only their string entries), never as a thrown error,
 * so one malformed object degrades that one item of a list, not the list (the control-loop rule). Pure.
 */
import { asObject, isJsonObject, stringField, stringMap, wholeNumber, type JsonObject } from '../json.js';

/** What the product reads of `metadata`. `name` is '' when the object has none (the API server always sets it). */
export interface MetaView {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  /** Set while the object is being deleted (finalizers still running). */
  deletionTimestamp?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReferenceView[];
}

/** An owner reference: who owns the object (a revision's HelmRelease). */
export interface OwnerReferenceView {
  kind?: string;
  name?: string;
  uid?: string;
}

/** The `metadata` of `object` (any JSON) as a MetaView. */
export function parseMeta(object: unknown): MetaView {
  const meta = asObject(asObject(object).metadata);
  const view: MetaView = {
    name: stringField(meta.name) ?? '',
    labels: stringMap(meta.labels),
    annotations: stringMap(meta.annotations),
    ownerReferences: Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isJsonObject).map(ownerOf)
      : [],
  };
  for (const key of ['namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'] as const) {
    const value = stringField(meta[key]);
    if (value !== undefined) view[key] = value;
  }
  const generation = wholeNumber(meta.generation);
  if (generation !== undefined) view.generation = generation;
  return view;
}

function ownerOf(owner: JsonObject): OwnerReferenceView {
  return { kind: stringField(owner.kind), name: stringField(owner.name), uid: stringField(owner.uid) };
}

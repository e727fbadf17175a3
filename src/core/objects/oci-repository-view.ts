/**
 * A Flux OCIRepository as the product reads it (source.toolkit.fluxcd.io): the chart's URL, the range or tag it
 * follows, and the revision source-controller resolved. Parsed once from untyped JSON where a read hands the
 * source over; a field of the wrong type reads as absent. Pure.
 */
import { parseConditions } from '../status/conditions.js';
import type { Condition } from '../types.js';
import { asObject, optionalString, stringField } from '../json.js';
import { parseMeta, type MetaView } from './object-meta.js';

export interface OciRepositoryView {
  meta: MetaView;
  /** `spec.url`, the chart's OCI address (`oci://…`). */
  url?: string;
  /** `spec.ref.semver`: the range it follows (empty reads as absent). */
  semver?: string;
  /** `spec.ref.tag` (empty reads as absent). */
  tag?: string;
  /** `status.artifact.revision`: the version resolved (`2.1.0@sha256:…`; empty reads as absent). */
  revision?: string;
  conditions: Condition[];
}

/** `object` (any JSON) read as an OCIRepository. */
export function parseOciRepository(object: unknown): OciRepositoryView {
  const spec = asObject(asObject(object).spec);
  const status = asObject(asObject(object).status);
  const ref = asObject(spec.ref);
  const view: OciRepositoryView = { meta: parseMeta(object), conditions: parseConditions(status.conditions) };
  const url = stringField(spec.url);
  const semver = optionalString(ref.semver);
  const tag = optionalString(ref.tag);
  const revision = optionalString(asObject(status.artifact).revision);
  if (url !== undefined) view.url = url;
  if (semver !== undefined) view.semver = semver;
  if (tag !== undefined) view.tag = tag;
  if (revision !== undefined) view.revision = revision;
  return view;
}

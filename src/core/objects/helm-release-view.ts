/**
 * A Flux HelmRelease as the product reads it (helm.toolkit.fluxcd.io, v2): which chart source it renders
 * (`spec.chartRef`), its values, where it installs, and what helm-controller reported. Parsed once from untyped
 * JSON where a read hands the release over; a field of the wrong type reads as absent, and values that are not
 * an object are a recorded problem (core/release-values.ts), never read as empty values. Pure.
 */
import { parseConditions } from '../status/conditions.js';
import { valuesShapeProblem } from '../release-values.js';
import type { Condition } from '../types.js';
import { asList, asObject, isJsonObject, stringField, wholeNumber, type JsonObject } from '../json.js';
import { parseMeta, type MetaView } from './object-meta.js';

/** `spec.chartRef`: the source the release renders from (an OCIRepository for the agent chart). */
export interface ChartRefView {
  kind?: string;
  name?: string;
  /** As written ('' kept): an empty namespace means the release's own. */
  namespace?: string;
}

/** What helm-controller reported in `status`. */
export interface ReleaseStatusView {
  conditions: Condition[];
  observedGeneration?: number;
  lastAttemptedGeneration?: number;
  lastAttemptedRevision?: string;
  /** `status.history`, newest first, each entry as stored (its fields are read by who reports them). */
  history: JsonObject[];
}

export interface HelmReleaseView {
  meta: MetaView;
  /** Absent when `spec.chartRef` is not an object. */
  chartRef?: ChartRefView;
  releaseName?: string;
  targetNamespace?: string;
  /** `spec.suspend === true`. */
  suspended: boolean;
  /** True when `spec.kubeConfig` is set: the release installs into another cluster. */
  remote: boolean;
  /** `spec.values` as stored, for the writes that keep them as they are. */
  rawValues: unknown;
  /** `spec.values` when they are an object, else {} (see `valuesProblem`). */
  values: JsonObject;
  /** Why `spec.values` cannot be read as Helm values; undefined when they can. */
  valuesProblem?: string;
  status: ReleaseStatusView;
}

/** `object` (any JSON) read as a HelmRelease. */
export function parseHelmRelease(object: unknown): HelmReleaseView {
  const spec = asObject(asObject(object).spec);
  const view: HelmReleaseView = {
    meta: parseMeta(object),
    suspended: spec.suspend === true,
    remote: spec.kubeConfig !== undefined,
    rawValues: spec.values,
    values: asObject(spec.values),
    status: releaseStatus(asObject(asObject(object).status)),
  };
  if (isJsonObject(spec.chartRef)) view.chartRef = chartRefOf(spec.chartRef);
  const releaseName = stringField(spec.releaseName);
  const targetNamespace = stringField(spec.targetNamespace);
  const valuesProblem = valuesShapeProblem(spec.values);
  if (releaseName !== undefined) view.releaseName = releaseName;
  if (targetNamespace !== undefined) view.targetNamespace = targetNamespace;
  if (valuesProblem !== undefined) view.valuesProblem = valuesProblem;
  return view;
}

function chartRefOf(ref: JsonObject): ChartRefView {
  const out: ChartRefView = {};
  for (const key of ['kind', 'name', 'namespace'] as const) {
    const value = stringField(ref[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function releaseStatus(status: JsonObject): ReleaseStatusView {
  const out: ReleaseStatusView = {
    conditions: parseConditions(status.conditions), history: asList(status.history).map(asObject),
  };
  const observed = wholeNumber(status.observedGeneration);
  const attempted = wholeNumber(status.lastAttemptedGeneration);
  const revision = stringField(status.lastAttemptedRevision);
  if (observed !== undefined) out.observedGeneration = observed;
  if (attempted !== undefined) out.lastAttemptedGeneration = attempted;
  if (revision !== undefined) out.lastAttemptedRevision = revision;
  return out;
}

/** The OCIRepository a release renders from (`chartRef` of that kind with a name), in `ownNamespace` when the
 * reference names none. */
export function releaseSource(
  release: HelmReleaseView, ownNamespace = release.meta.namespace ?? '',
): { namespace: string; name: string } | undefined {
  const ref = release.chartRef;
  if (ref?.kind !== 'OCIRepository' || ref.name === undefined) return undefined;
  return { namespace: ref.namespace || ownNamespace, name: ref.name };
}

/**
 * What the helm-controller's actions share: the resource, the context they write through, the
 * release's target cluster and storage namespace, and the conditions each outcome sets.
 */
import { isObject, type JsonObject } from '../../api/json.js';
import type { SandboxStore } from '../../ops/sandbox-store.js';
import { metadata, type ControllerContext } from '../work-loop.js';
import { releaseNameOf } from '../helm-apply.js';
import { releaseTarget, type ReleaseTarget } from '../remote-cluster.js';
import { setCondition, type Condition } from '../status-helpers.js';

export const HR = 'helmreleases';
/** helm-controller retries a release it could not reach with back-off; the sandbox looks again after this (ms). */
export const UNREACHABLE_RETRY_MS = 2_000;

/** What an action reads and writes through; `delayMs` is the reconcile delay of a requeued action. */
export type ActionContext = Pick<ControllerContext, 'store' | 'log'> & { delayMs?: number };

/** One reconcile under way: the release as read, the status it starts from, the generation it judges. */
export interface Reconcile { ctx: ActionContext; hr: JsonObject; status: JsonObject; generation: number }

export const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Where Helm keeps the release's records: `spec.storageNamespace`, else the release's own namespace. */
export function storageNamespaceOf(hr: JsonObject): string {
  return str(obj(hr.spec).storageNamespace) || String(metadata(hr).namespace);
}

/** The target cluster of `hr`, probing its storage as Helm's first request does. */
export function targetOf(store: SandboxStore, hr: JsonObject): ReleaseTarget {
  return releaseTarget(store, hr, { storageNamespace: storageNamespaceOf(hr), releaseName: releaseNameOf(hr) });
}

/** `conditions` with each of `types` set to the same status, reason and message. */
export function setAll(conditions: Condition[], types: readonly string[],
  c: Omit<Condition, 'type' | 'lastTransitionTime'>): Condition[] {
  return types.reduce((all, type) => setCondition(all, { ...c, type }), conditions);
}

/** Conditions judged again for `generation` (Flux's conditions.Set stamps the generation it reconciled). */
export function forGeneration(conditions: readonly Condition[], generation: number): Condition[] {
  return conditions.map((c) => ({ ...c, observedGeneration: generation }));
}

/**
 * What the Deployment controller decides, apart from the store: which owned ReplicaSet runs the
 * Deployment's template (compared as EqualIgnoreHash does), the ReplicaSet a new template gets, and
 * the Deployment's status from its ReplicaSets' counts. Pure, so each rule is tested on plain objects;
 * workloads.ts reads the store, calls these, then writes.
 */
import { asList, asObject, deepEqual, isObject, numberOr, type JsonObject } from '../api/json.js';
import { labelsOf, metadata, ownerReference } from './work-loop.js';
import { asConditions, canonicalJson, setCondition, sha256Hex } from './status-helpers.js';

/** The alphabet Kubernetes uses for generated names. */
export const SAFE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/** The annotation that numbers a Deployment's templates, on the Deployment and on each ReplicaSet. */
export const REVISION = 'deployment.kubernetes.io/revision';

/** A pod-template-hash: 10 characters of the alphabet Kubernetes uses for generated names. */
export function templateHash(template: unknown): string {
  const hex = sha256Hex(canonicalJson(template));
  let out = '';
  for (let i = 0; i < 10; i++) out += SAFE_CHARS[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % SAFE_CHARS.length];
  return out;
}

/** The revision an object's annotation names (0 when it names none). */
export const revisionOf = (o: JsonObject): number => Number(asObject(metadata(o).annotations)[REVISION] ?? 0);

/**
 * A pod template as the Deployment controller compares them (EqualIgnoreHash): without the
 * pod-template-hash label, and a null creationTimestamp (what Go clients write into
 * templates) the same as none, as typed objects cannot tell them apart.
 */
export function comparableTemplate(template: unknown): JsonObject {
  const copy = structuredClone(asObject(template));
  const meta = asObject(copy.metadata);
  if (meta.creationTimestamp === null) delete meta.creationTimestamp;
  if (isObject(meta.labels)) {
    delete meta.labels['pod-template-hash'];
    if (Object.keys(meta.labels).length === 0) delete meta.labels;
  }
  if (Object.keys(meta).length === 0) delete copy.metadata;
  else copy.metadata = meta;
  return copy;
}

/** The ReplicaSet that runs a template, when one is owned, with the hash its name and labels carry. */
export interface TemplateMatch {
  /** The owned ReplicaSet whose template is the Deployment's (the same object as in `owned`). */
  current: JsonObject | undefined;
  /** Its pod-template-hash label, or the hash of the template when it has none or there is no match. */
  hash: string;
  /** The highest revision among the owned ReplicaSets (0 when none is owned). */
  newest: number;
}

/** Find the owned ReplicaSet running `template`, as the controller's FindNewReplicaSet does. */
export function matchTemplate(owned: readonly JsonObject[], template: JsonObject): TemplateMatch {
  const wanted = comparableTemplate(template);
  const newest = owned.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
  const current = owned.find((rs) => deepEqual(comparableTemplate(asObject(rs.spec).template), wanted));
  const hash = current ? String(labelsOf(current)['pod-template-hash'] ?? templateHash(wanted)) : templateHash(wanted);
  return { current, hash, newest };
}

/** The ReplicaSet a Deployment's new template gets: named and labelled by its hash, at `revision`. */
export function newReplicaSet(dep: JsonObject, hash: string, revision: number): JsonObject {
  const { name, namespace } = metadata(dep);
  const spec = asObject(dep.spec);
  const replicas = numberOr(spec.replicas, 1);
  const template = asObject(spec.template);
  const labels = { ...asObject(asObject(template.metadata).labels), 'pod-template-hash': hash };
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name: `${String(name)}-${hash}`, namespace, labels, ownerReferences: [ownerReference(dep)],
      annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas),
        [REVISION]: String(revision) },
    },
    spec: {
      replicas,
      selector: { matchLabels: { ...asObject(asObject(spec.selector).matchLabels), 'pod-template-hash': hash } },
      template: { metadata: { ...asObject(template.metadata), labels }, spec: template.spec },
    },
  };
}

/** The counts a Deployment's status is made of, summed over its ReplicaSets. */
export interface RolloutCounts {
  /** spec.replicas of the Deployment. */
  replicas: number;
  total: number;
  ready: number;
  available: number;
  /** status.replicas of the current ReplicaSet. */
  updated: number;
  /** The name of the current ReplicaSet. */
  rsName: string;
}

/** Sum the status counts of a Deployment's ReplicaSets. */
export function sumReplicaSets(all: readonly JsonObject[]): { total: number; ready: number; available: number } {
  const sum = (key: string) => all.reduce((n, rs) => n + numberOr(asObject(rs.status)[key], 0), 0);
  return { total: sum('replicas'), ready: sum('readyReplicas'), available: sum('availableReplicas') };
}

/**
 * The Deployment's status: `Available` once maxUnavailable 25 % (rounded down, the default
 * RollingUpdate strategy) is met, `Progressing` complete once every replica is updated and available;
 * zero ready/available/updated counts are left out, as the API server's omitempty does.
 */
export function deploymentStatus(dep: JsonObject, counts: RolloutCounts): JsonObject {
  const { replicas, total, available, updated, rsName } = counts;
  let conditions = asConditions(asList(asObject(dep.status).conditions));
  const minimum = replicas - Math.floor(replicas * 0.25);
  conditions = setCondition(conditions, available >= minimum
    ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.' }
    : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.' });
  const complete = updated === replicas && total === replicas && available >= replicas;
  conditions = setCondition(conditions, complete
    ? { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${rsName}" has successfully progressed.` }
    : { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated',
        message: `ReplicaSet "${rsName}" is progressing.` });
  const status: JsonObject = {
    observedGeneration: numberOr(metadata(dep).generation, 1), replicas: total, updatedReplicas: updated,
    readyReplicas: counts.ready, availableReplicas: available, conditions,
  };
  if (total - available > 0) status.unavailableReplicas = total - available;
  for (const key of ['readyReplicas', 'availableReplicas', 'updatedReplicas']) {
    if (status[key] === 0) delete status[key];
  }
  return status;
}

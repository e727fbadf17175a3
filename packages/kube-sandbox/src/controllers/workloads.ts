/**
 * The parts of kube-controller-manager agents' workloads need: the Deployment controller (a ReplicaSet
 * per template hash, older ones scaled to zero, a template seen before takes its ReplicaSet back as
 * `rollout undo` does, the revision annotation, replica counts, `Available`/`Progressing`) and the
 * ReplicaSet controller (owned pods counted by readiness). Dependents go with their owners through the
 * garbage collector: Agent → Deployment → ReplicaSet → pods.
 */
import { randomInt } from 'node:crypto';
import { asList, asObject, deepEqual, isObject, numberOr, type JsonObject } from '../api/json.js';
import { Controller, controllerOf, labelsOf, metadata, ownerReference, type ControllerContext } from './work-loop.js';
import { canonicalJson, findCondition, setCondition, sha256Hex, writeStatus,
  type Condition } from './status-helpers.js';

const MANAGER = 'kube-controller-manager';
const SAFE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/** A pod-template-hash: 10 characters of the alphabet Kubernetes uses for generated names. */
export function templateHash(template: unknown): string {
  const hex = sha256Hex(canonicalJson(template));
  let out = '';
  for (let i = 0; i < 10; i++) out += SAFE_CHARS[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % SAFE_CHARS.length];
  return out;
}

function randomSuffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += SAFE_CHARS[randomInt(SAFE_CHARS.length)];
  return out;
}

const REVISION = 'deployment.kubernetes.io/revision';
const revisionOf = (o: JsonObject): number => Number(asObject(metadata(o).annotations)[REVISION] ?? 0);

/**
 * A pod template as the Deployment controller compares them (EqualIgnoreHash): without the
 * pod-template-hash label, and a null creationTimestamp (what Go clients write into
 * templates) the same as none, as typed objects cannot tell them apart.
 */
function comparableTemplate(template: unknown): JsonObject {
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

const ownedBy = (owner: JsonObject) => (o: JsonObject): boolean => controllerOf(o)?.uid === metadata(owner).uid;
const podReady = (pod: JsonObject): boolean => findCondition(pod, 'Ready')?.status === 'True';

function reconcileDeployment(ctx: ControllerContext, namespace: string, name: string): void {
  const { store } = ctx;
  const dep = store.find('deployments', namespace, name);
  if (!dep || metadata(dep).deletionTimestamp) return;
  const spec = asObject(dep.spec);
  const replicas = numberOr(spec.replicas, 1);
  const template = asObject(spec.template);
  const wanted = comparableTemplate(template);
  const owned = store.list('replicasets', { namespace }).items.filter(ownedBy(dep));
  const newest = owned.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
  let current = owned.find((rs) => deepEqual(comparableTemplate(asObject(rs.spec).template), wanted));
  const hash = current ? String(labelsOf(current)['pod-template-hash'] ?? templateHash(wanted)) : templateHash(wanted);
  if (current && revisionOf(current) < newest) {
    // An older template back in use becomes the newest revision again.
    const annotations = { ...asObject(metadata(current).annotations), [REVISION]: String(newest + 1) };
    current = store.update('replicasets',
      { ...structuredClone(current), metadata: { ...structuredClone(metadata(current)), annotations } },
      { fieldManager: MANAGER });
  }
  if (!current) {
    const labels = { ...asObject(asObject(template.metadata).labels), 'pod-template-hash': hash };
    const revision = newest + 1;
    current = store.create('replicasets', {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: {
        name: `${name}-${hash}`, namespace, labels, ownerReferences: [ownerReference(dep)],
        annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas),
          'deployment.kubernetes.io/revision': String(revision) },
      },
      spec: {
        replicas,
        selector: { matchLabels: { ...asObject(asObject(spec.selector).matchLabels), 'pod-template-hash': hash } },
        template: { metadata: { ...asObject(template.metadata), labels }, spec: template.spec },
      },
    }, { fieldManager: MANAGER });
  } else if (numberOr(asObject(current.spec).replicas, 0) !== replicas) {
    current = store.update('replicasets',
      { ...structuredClone(current), spec: { ...structuredClone(asObject(current.spec)), replicas } },
      { fieldManager: MANAGER });
  }
  for (const old of owned) {
    if (old !== current && numberOr(asObject(old.spec).replicas, 0) !== 0) {
      const spec = { ...structuredClone(asObject(old.spec)), replicas: 0 };
      store.update('replicasets', { ...structuredClone(old), spec }, { fieldManager: MANAGER });
    }
  }
  const all = store.list('replicasets', { namespace }).items.filter(ownedBy(dep));
  const sum = (key: string) => all.reduce((n, rs) => n + numberOr(asObject(rs.status)[key], 0), 0);
  const total = sum('replicas');
  const available = sum('availableReplicas');
  const rsName = String(metadata(current).name);
  const updated = numberOr(asObject(store.find('replicasets', namespace, rsName)?.status).replicas, 0);
  const revision = String(revisionOf(current));
  let deployment = dep;
  if (asObject(metadata(dep).annotations)[REVISION] !== revision) {
    const annotations = { ...asObject(metadata(dep).annotations), [REVISION]: revision };
    deployment = store.update('deployments',
      { ...structuredClone(dep), metadata: { ...structuredClone(metadata(dep)), annotations } },
      { fieldManager: MANAGER });
  }
  // Cast kept as it was: the entries are the ones setCondition wrote; a hand-written malformed entry is not
  // guarded against here.
  let conditions = asList(asObject(dep.status).conditions) as Condition[];
  // maxUnavailable 25% (rounded down) of the default RollingUpdate strategy.
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
    readyReplicas: sum('readyReplicas'), availableReplicas: available, conditions,
  };
  if (total - available > 0) status.unavailableReplicas = total - available;
  for (const key of ['readyReplicas', 'availableReplicas', 'updatedReplicas']) {
    if (status[key] === 0) delete status[key];
  }
  writeStatus(store, 'deployments', deployment, status, MANAGER);
}

function reconcileReplicaSet(ctx: ControllerContext, namespace: string, name: string): void {
  const { store } = ctx;
  const rs = store.find('replicasets', namespace, name);
  if (!rs || metadata(rs).deletionTimestamp) return;
  const spec = asObject(rs.spec);
  const desired = numberOr(spec.replicas, 1);
  let pods = store.list('pods', { namespace }).items.filter(ownedBy(rs)).filter((p) => !metadata(p).deletionTimestamp);
  const template = asObject(spec.template);
  for (let i = pods.length; i < desired; i++) {
    let podName: string;
    do podName = `${name}-${randomSuffix()}`;
    while (store.find('pods', namespace, podName));
    pods.push(
      store.create(
        'pods',
        {
          apiVersion: 'v1', kind: 'Pod',
          metadata: {
            name: podName, namespace, labels: asObject(asObject(template.metadata).labels),
            annotations: asObject(asObject(template.metadata).annotations), ownerReferences: [ownerReference(rs)],
          },
          spec: { ...structuredClone(asObject(template.spec)), nodeName: 'sandbox-node' },
        },
        { fieldManager: MANAGER },
      ),
    );
  }
  if (pods.length > desired) {
    const extra = pods.slice(desired);
    for (const pod of extra) store.delete('pods', namespace, String(metadata(pod).name), { fieldManager: MANAGER });
    pods = pods.slice(0, desired);
  }
  const ready = pods.filter(podReady).length;
  const labels = labelsOf(rs);
  const fullyLabeled = pods.filter((p) => Object.entries(labels).every(([k, v]) => labelsOf(p)[k] === v)).length;
  const status: JsonObject = {
    replicas: pods.length, fullyLabeledReplicas: fullyLabeled, readyReplicas: ready, availableReplicas: ready,
    observedGeneration: numberOr(metadata(rs).generation, 1),
  };
  for (const key of ['readyReplicas', 'availableReplicas']) if (status[key] === 0) delete status[key];
  writeStatus(store, 'replicasets', rs, status, MANAGER);
}

/** Start the Deployment and ReplicaSet controllers. */
export function startWorkloadControllers(ctx: ControllerContext): Controller[] {
  const owner = (kind: string) => (event: { object: JsonObject }) => {
    const ref = controllerOf(event.object);
    return ref && ref.kind === kind ? [[String(metadata(event.object).namespace), ref.name] as const] : [];
  };
  const deployments = new Controller('deployment-controller', ctx, (ns, name) => reconcileDeployment(ctx, ns, name))
    .watch('deployments').watch('replicasets', owner('Deployment')).resync('deployments');
  const replicasets = new Controller('replicaset-controller', ctx, (ns, name) => reconcileReplicaSet(ctx, ns, name))
    .watch('replicasets').watch('pods', owner('ReplicaSet')).resync('replicasets');
  return [deployments, replicasets];
}

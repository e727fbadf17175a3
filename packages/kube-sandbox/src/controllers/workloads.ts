/**
 * The parts of kube-controller-manager agents' workloads need: the Deployment controller (a ReplicaSet
 * per template hash, older ones scaled to zero, a template seen before takes its ReplicaSet back as
 * `rollout undo` does, the revision annotation, replica counts, `Available`/`Progressing`) and the
 * ReplicaSet controller (owned pods counted by readiness). Dependents go with their owners through the
 * garbage collector: Agent → Deployment → ReplicaSet → pods. What a Deployment's round decides (which
 * ReplicaSet runs its template, its status) is pure in deployment-rollout.ts; here are the reads and writes.
 */
import { randomInt } from 'node:crypto';
import { asObject, numberOr, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import { Controller, controllerOf, labelsOf, metadata, ownerReference, type ControllerContext } from './work-loop.js';
import { findCondition, writeStatus } from './status-helpers.js';
import { deploymentStatus, matchTemplate, newReplicaSet, REVISION, revisionOf, SAFE_CHARS,
  sumReplicaSets } from './deployment-rollout.js';

const MANAGER = 'kube-controller-manager';

function randomSuffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += SAFE_CHARS[randomInt(SAFE_CHARS.length)];
  return out;
}

const ownedBy = (owner: JsonObject) => (o: JsonObject): boolean => controllerOf(o)?.uid === metadata(owner).uid;
const podReady = (pod: JsonObject): boolean => findCondition(pod, 'Ready')?.status === 'True';

/** `obj` stored again with `revision` in its revision annotation. */
function writeRevision(store: SandboxStore, resource: 'deployments' | 'replicasets', obj: JsonObject,
  revision: string): JsonObject {
  const annotations = { ...asObject(metadata(obj).annotations), [REVISION]: revision };
  return store.update(resource,
    { ...structuredClone(obj), metadata: { ...structuredClone(metadata(obj)), annotations } },
    { fieldManager: MANAGER });
}

/** `rs` stored again with `replicas` in its spec. */
function writeReplicas(store: SandboxStore, rs: JsonObject, replicas: number): JsonObject {
  return store.update('replicasets',
    { ...structuredClone(rs), spec: { ...structuredClone(asObject(rs.spec)), replicas } },
    { fieldManager: MANAGER });
}

/**
 * Make the ReplicaSet of the Deployment's template the newest at `replicas` (created when no owned one
 * runs the template, revived as the newest revision when an older one does) and scale the others to zero.
 * Returns the current ReplicaSet as stored.
 */
function rollOut(store: SandboxStore, dep: JsonObject, owned: readonly JsonObject[], replicas: number): JsonObject {
  const match = matchTemplate(owned, asObject(asObject(dep.spec).template));
  let current = match.current;
  // An older template back in use becomes the newest revision again.
  if (current && revisionOf(current) < match.newest) {
    current = writeRevision(store, 'replicasets', current, String(match.newest + 1));
  }
  if (!current) {
    current = store.create('replicasets', newReplicaSet(dep, match.hash, match.newest + 1), { fieldManager: MANAGER });
  } else if (numberOr(asObject(current.spec).replicas, 0) !== replicas) {
    current = writeReplicas(store, current, replicas);
  }
  // Compared by identity as it always was: a current ReplicaSet rewritten above is no longer the object
  // listed in `owned`, so its listed copy is tried too and refused as a conflict (409), which makes the
  // work loop reconcile again shortly.
  for (const old of owned) {
    if (old !== current && numberOr(asObject(old.spec).replicas, 0) !== 0) writeReplicas(store, old, 0);
  }
  return current;
}

function reconcileDeployment(ctx: ControllerContext, namespace: string, name: string): void {
  const { store } = ctx;
  const dep = store.find('deployments', namespace, name);
  if (!dep || metadata(dep).deletionTimestamp) return;
  const replicas = numberOr(asObject(dep.spec).replicas, 1);
  const owned = store.list('replicasets', { namespace }).items.filter(ownedBy(dep));
  const current = rollOut(store, dep, owned, replicas);
  const all = store.list('replicasets', { namespace }).items.filter(ownedBy(dep));
  const rsName = String(metadata(current).name);
  const updated = numberOr(asObject(store.find('replicasets', namespace, rsName)?.status).replicas, 0);
  const revision = String(revisionOf(current));
  const deployment = asObject(metadata(dep).annotations)[REVISION] !== revision
    ? writeRevision(store, 'deployments', dep, revision) : dep;
  const status = deploymentStatus(dep, { replicas, ...sumReplicaSets(all), updated, rsName });
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

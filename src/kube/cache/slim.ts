/**
 * What the read cache keeps of an object, as informers' transform functions trim theirs: only what reads use, so
 * thousands of agents fit the chart's memory limit. Never `metadata.managedFields`. Deployments, pods and Warning
 * events (read for get_agent_status only) keep what its fold reads (service/status/, core/status/).
 * A HelmRelease and an Agent keep metadata and spec whole (an agent's version hashes them) and of their status what
 * the reads show: generations, conditions, the last attempted revision, each Helm history entry's version, chart
 * version, state, deploy time and config digest. Every other type is kept whole. Applied once, as an object enters.
 */
import type { Gvr, KubeObject } from '../../service/ports.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import { isKubeObject } from '../kube-json.js';

/** `from`'s own fields among `keys` that are set, in `keys`' order. */
function pick(from: unknown, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  if (!isJsonObject(from)) return out;
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** `list`'s object entries, each picked; undefined when `list` is no array. */
function pickEach(list: unknown, keys: readonly string[]): JsonObject[] | undefined {
  return Array.isArray(list) ? list.map((item) => pick(item, keys)) : undefined;
}

/** A copy of `from` without the keys whose value is undefined (`delete` would leave V8 a bigger, slower object). */
function defined(from: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(from)) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** The metadata a status fold reads of a Deployment or pod (labels answer the cache's label selectors). */
const META = ['name', 'namespace', 'resourceVersion', 'generation', 'deletionTimestamp', 'labels'] as const;
const CONTAINER = ['name', 'ready', 'restartCount', 'state'] as const;
const HISTORY = ['version', 'chartVersion', 'status', 'lastDeployed', 'configDigest'] as const;

function slimPod(pod: KubeObject): JsonObject {
  const status = isJsonObject(pod.status) ? pod.status : {};
  return defined({
    apiVersion: pod.apiVersion, kind: pod.kind, metadata: pick(pod.metadata, META),
    status: defined({
      phase: status.phase,
      // Only Ready tells (core/status/pods.ts): a pod's other conditions are left out.
      conditions: pickEach(Array.isArray(status.conditions)
        ? status.conditions.filter((c) => isJsonObject(c) && c.type === 'Ready') : undefined, ['type', 'status']),
      initContainerStatuses: pickEach(status.initContainerStatuses, CONTAINER),
      containerStatuses: pickEach(status.containerStatuses, CONTAINER),
    }),
  });
}

function slimDeployment(deployment: KubeObject): JsonObject {
  return defined({
    apiVersion: deployment.apiVersion, kind: deployment.kind, metadata: pick(deployment.metadata, META),
    spec: pick(deployment.spec, ['replicas']),
    status: pick(deployment.status, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas',
      'availableReplicas', 'conditions']),
  });
}

function slimEvent(event: KubeObject): JsonObject {
  return defined({
    apiVersion: event.apiVersion, kind: event.kind,
    metadata: pick(event.metadata, ['name', 'namespace', 'resourceVersion', 'creationTimestamp']),
    involvedObject: pick(event.involvedObject, ['kind', 'name', 'namespace']),
    type: event.type, reason: event.reason, message: event.message, count: event.count,
    lastTimestamp: event.lastTimestamp, eventTime: event.eventTime,
  });
}

function slimRelease(release: KubeObject): JsonObject {
  if (!isJsonObject(release.status)) return release;
  const status = pick(release.status, ['observedGeneration', 'lastAttemptedGeneration', 'lastAttemptedRevision',
    'conditions']);
  const history = pickEach(release.status.history, HISTORY);
  if (history) status.history = history;
  return { ...release, status };
}

/** The trims by `<group>/<resource>` (the core group is empty). */
/** A kagent Agent keeps its metadata and spec (what get_agent shows); of its status, its generation and conditions. */
function slimAgent(agent: KubeObject): JsonObject {
  if (!isJsonObject(agent.status)) return agent;
  return { ...agent, status: pick(agent.status, ['observedGeneration', 'conditions']) };
}

const SLIM: Readonly<Record<string, (object: KubeObject) => JsonObject>> = {
  '/pods': slimPod, 'apps/deployments': slimDeployment, '/events': slimEvent,
  'helm.toolkit.fluxcd.io/helmreleases': slimRelease, 'kagent.dev/agents': slimAgent,
};

/** The part of `object`, of the resource type `gvr`, the read cache keeps. */
export function slim(gvr: Pick<Gvr, 'group' | 'resource'>, object: KubeObject): KubeObject {
  const key = `${gvr.group}/${gvr.resource}`;
  if (object.metadata?.managedFields !== undefined) {
    const { managedFields: _dropped, ...metadata } = object.metadata;
    object = { ...object, metadata };
  }
  const trim = Object.hasOwn(SLIM, key) ? SLIM[key] : undefined;
  const trimmed = trim?.(object);
  // A trim keeps apiVersion, kind and metadata.name; an object that had none stays whole.
  return isKubeObject(trimmed) ? trimmed : object;
}

/**
 * get_agent_status: gathers the Agent CR, its release, the Deployment named
 * after the agent, its pods (`kagent=<name>`) and the namespace's Warning events in one
 * round of concurrent reads, and folds them with the core verdict. A failing event list
 * means no events, not a failed call; any other failure fails it.
 * The fold (`foldStatus`) is its own function: the rollout waiter folds the same objects,
 * kept current by watches, into the same Status.
 */
import { conditionStatus } from '../../core/conditions.js';
import { summarizeEvents } from '../../core/events.js';
import { summarizePods } from '../../core/pods.js';
import type { HistoryEntry, Status } from '../../core/types.js';
import { statusVerdict, type StatusFacts, type VerdictOptions } from '../../core/verdict.js';
import { agentNotFound } from './lookup.js';
import { getAnyAgent } from './agent-objects.js';
import { notAnAgent, rendersAgentChart } from './agent-chart.js';
import type { KubeObject, KubePort } from '../ports.js';
import { conditionsOf, helmReleaseRef, provenanceOf } from './read-model.js';
import type { ResourceTypes } from '../resources.js';
import { isLine2Agent, objectStatus, type AgentObject } from '../../core/chart-lines/agent-2x.js';
import { majorOfVersion } from '../../core/chart-lines/chart-line.js';
import { statusVerdict2x } from '../../core/chart-lines/verdict-2x.js';
import { asList, asObject, finiteNumberOr, wholeNumber } from '../../core/json.js';

/** `metadata.generation` and `status.observedGeneration`, where the object carries them. */
function generations(object: KubeObject): { generation?: number; observedGeneration?: number } {
  const out: { generation?: number; observedGeneration?: number } = {};
  const generation = wholeNumber(object.metadata.generation);
  const observed = wholeNumber(asObject(object.status).observedGeneration);
  if (generation !== undefined) out.generation = generation;
  if (observed !== undefined) out.observedGeneration = observed;
  return out;
}

function releaseFacts(release: KubeObject): NonNullable<StatusFacts['helmRelease']> {
  const ref = helmReleaseRef(release);
  const conditions = conditionsOf(release);
  const history = asList(asObject(release.status).history)
    .slice(0, 5)
    .map(asObject)
    .map((h): HistoryEntry => {
      const entry: HistoryEntry = { version: finiteNumberOr(h.version, 0) };
      if (typeof h.chartVersion === 'string') entry.chartVersion = h.chartVersion;
      if (typeof h.status === 'string') entry.status = h.status;
      if (typeof h.lastDeployed === 'string') entry.lastDeployed = h.lastDeployed;
      return entry;
    });
  const facts: NonNullable<StatusFacts['helmRelease']> = {
    exists: true,
    ready: ref.ready,
    suspended: ref.suspended,
    gitOpsOwned: ref.gitOpsOwned,
    deleting: ref.deleting,
    ...generations(release),
  };
  const lastAttempted = wholeNumber(asObject(release.status).lastAttemptedGeneration);
  if (lastAttempted !== undefined) facts.lastAttemptedGeneration = lastAttempted;
  if (conditions.length > 0) facts.conditions = conditions;
  if (history.length > 0) facts.history = history;
  if (ref.lastAttemptedRevision) facts.lastAttemptedRevision = ref.lastAttemptedRevision;
  return facts;
}

function deploymentFacts(deployment: KubeObject | undefined): NonNullable<StatusFacts['deployment']> {
  if (!deployment) return { exists: false, replicas: 0, readyReplicas: 0, availableReplicas: 0 };
  const status = asObject(deployment.status);
  const conditions = conditionsOf(deployment);
  // spec.replicas defaults to 1 (apps/v1); status counts absent are 0, as the controller omits zeros.
  const desired = wholeNumber(asObject(deployment.spec).replicas) ?? 1;
  const facts: NonNullable<StatusFacts['deployment']> = {
    exists: true,
    replicas: finiteNumberOr(status.replicas ?? asObject(deployment.spec).replicas, 0),
    readyReplicas: finiteNumberOr(status.readyReplicas, 0),
    availableReplicas: finiteNumberOr(status.availableReplicas, 0),
    updatedReplicas: finiteNumberOr(status.updatedReplicas, 0),
    desiredReplicas: desired,
    ...generations(deployment),
  };
  if (conditions.length > 0) facts.conditions = conditions;
  return facts;
}

/** The objects a status is folded from, however they were read (a round of reads, or watches). */
export interface StatusObjects {
  agent?: KubeObject;
  release?: KubeObject;
  deployment?: KubeObject;
  pods: readonly KubeObject[];
  /** The namespace's Warning events (the fold keeps those about the agent and its pods). */
  events: readonly KubeObject[];
}

/**
 * Where an agent's HelmRelease is: the release the Agent's provenance labels name, else
 * the one of the agent's own name and namespace.
 */
export function releaseLocation(
  agent: KubeObject | undefined, namespace: string, name: string,
): { namespace: string; name: string } {
  return (agent && provenanceOf(agent)) || { namespace, name };
}

/**
 * The status folded from what was read about the agent `namespace/name`; with
 * `generation`, not ready before the release has reached at least that generation.
 */
export function foldStatus(
  namespace: string, name: string, objects: StatusObjects, options: VerdictOptions = {},
): Status {
  if (isLine2Agent(objects.agent) || (!objects.agent && objects.release && releaseIsLine2(objects.release))) {
    return foldStatus2x(namespace, name, objects, options);
  }
  const { agent, release, deployment } = objects;
  const agentConditions = conditionsOf(agent);
  const podStatuses = summarizePods(objects.pods);
  const facts: StatusFacts = {
    agent: agent
      ? {
          exists: true,
          ready: conditionStatus(agentConditions, 'Ready'),
          accepted: conditionStatus(agentConditions, 'Accepted'),
          ...(agentConditions.length > 0 ? { conditions: agentConditions } : {}),
          ...generations(agent),
        }
      : { exists: false, ready: null, accepted: null },
    helmRelease: release
      ? releaseFacts(release)
      : { exists: false, ready: null, suspended: false, gitOpsOwned: false, deleting: false },
    deployment: deploymentFacts(deployment),
    pods: podStatuses,
    events: summarizeEvents(objects.events, name, podStatuses.map((p) => p.name)),
  };
  const hrFacts = facts.helmRelease;
  const top: Pick<Status, 'generation' | 'observedGeneration' | 'suspended'> = {};
  if (hrFacts?.generation !== undefined) top.generation = hrFacts.generation;
  if (hrFacts?.observedGeneration !== undefined) top.observedGeneration = hrFacts.observedGeneration;
  if (hrFacts?.suspended) top.suspended = true;
  return { name, namespace, ...statusVerdict(facts, options), ...top, ...facts };
}

/** The status of one agent; 404 when neither its Agent nor its release exists. */
export async function agentStatus(
  kube: KubePort, types: ResourceTypes, namespace: string, name: string, chartUrl: string,
): Promise<Status> {
  const [agent, sameName, deployment, pods, events] = await Promise.all([
    getAnyAgent({ types }, kube, namespace, name),
    kube.get(types.helmRelease, namespace, name),
    kube.get(types.deployment, namespace, name),
    kube.list(types.pod, namespace, { labelSelector: `kagent=${name}` }),
    kube.list(types.event, namespace, { fieldSelector: 'type=Warning' }).catch(() => [] as KubeObject[]),
  ]);
  let release = sameName;
  const where = releaseLocation(agent, namespace, name);
  if (where.name !== name || where.namespace !== namespace) {
    release = (await kube.get(types.helmRelease, where.namespace, where.name)) ?? sameName;
  }
  // A release of another chart with the agent's name is not the agent's (agent-chart.ts).
  if (release && !(await rendersAgentChart(kube, types, release, chartUrl, namespace))) {
    if (!agent) throw notAnAgent(namespace, name, release, chartUrl);
    release = undefined;
  }
  if (!agent && !release) throw agentNotFound(namespace, name);
  return foldStatus(namespace, name, { agent, release, deployment, pods, events });
}

/**
 * The status of an agent of chart 2.x: the release and the Agent's own status (there are no pods; the Agent runs
 * on its Harness), Warning events about the agent's objects only (Agent, RemoteMCPServer and HelmRelease share its
 * name), folded by the 8.3 ladder.
 */
function foldStatus2x(namespace: string, name: string, objects: StatusObjects, options: VerdictOptions): Status {
  const { agent, release } = objects;
  const agentFacts = agent
    ? { ...objectStatus(agent as AgentObject), ...(agent.apiVersion ? { apiVersion: agent.apiVersion } : {}) }
    : { exists: false, ready: null, accepted: null };
  const facts: StatusFacts = {
    agent: agentFacts,
    helmRelease: release
      ? releaseFacts(release)
      : { exists: false, ready: null, suspended: false, gitOpsOwned: false, deleting: false },
    events: summarizeEvents(objects.events, name, []),
  };
  const top: Pick<Status, 'generation' | 'observedGeneration' | 'suspended'> = {};
  if (facts.helmRelease?.suspended) top.suspended = true;
  if (facts.helmRelease?.generation !== undefined) top.generation = facts.helmRelease.generation;
  const observed = facts.helmRelease?.observedGeneration;
  if (observed !== undefined) top.observedGeneration = observed;
  return { name, namespace, ...statusVerdict2x(facts, options), ...top, ...facts };
}

/** A release whose Agent is not rendered yet is of chart 2.x when it installed a 2.x chart or names a Harness. */
function releaseIsLine2(release: KubeObject): boolean {
  const status = asObject(release.status);
  const history = Array.isArray(status.history) ? asObject(status.history[0]).chartVersion : undefined;
  const installed = typeof history === 'string' ? history : status.lastAttemptedRevision;
  const major = majorOfVersion(typeof installed === 'string' ? installed : undefined);
  if (major !== undefined) return major === 2;
  return typeof asObject(asObject(asObject(release.spec).values).agent).harness === 'string';
}

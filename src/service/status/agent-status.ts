/**
 * get_agent_status: gathers the Agent CR, its release, the Deployment named
 * after the agent, its pods (`kagent=<name>`) and the namespace's Warning events in one
 * round of concurrent reads, and folds them with the core verdict. A failing event list
 * means no events, not a failed call; any other failure fails it.
 * The fold (`foldStatus`) is its own function: the rollout waiter folds the same objects,
 * kept current by watches, into the same Status.
 */
import { conditionStatus } from '../../core/status/conditions.js';
import { summarizeEvents } from '../../core/status/events.js';
import { summarizePods } from '../../core/status/pods.js';
import type { Status } from '../../core/types.js';
import { statusVerdict, type StatusFacts, type VerdictOptions } from '../../core/status/verdict.js';
import { agentNotFound } from '../reads/lookup.js';
import { getAnyAgent } from '../reads/agent-objects.js';
import { notAnAgent, rendersAgentChart } from '../reads/agent-chart.js';
import type { KubeObject, KubePort } from '../ports.js';
import { conditionsOf, provenanceOf } from '../reads/read-model.js';
import type { ResourceTypes } from '../resources.js';
import { foldStatus2x, isLine2Status } from './status-2x.js';
import { parseAgent } from '../../core/objects/agent-view.js';
import { generations, NO_RELEASE, releaseFacts, releaseTop, type StatusObjects } from './status-facts.js';
import { asObject, finiteNumberOr, wholeNumber } from '../../core/json.js';

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
  // Chart 2.x's agents are judged by their own module; the fold below is chart 0.x's.
  if (isLine2Status(objects)) return foldStatus2x(namespace, name, objects, options);
  const { release, deployment } = objects;
  const agent = objects.agent && parseAgent(objects.agent);
  const podStatuses = summarizePods(objects.pods);
  const facts: StatusFacts = {
    agent: agent
      ? {
          exists: true,
          ready: conditionStatus(agent.conditions, 'Ready'),
          accepted: conditionStatus(agent.conditions, 'Accepted'),
          ...(agent.conditions.length > 0 ? { conditions: agent.conditions } : {}),
          ...(agent.meta.generation !== undefined ? { generation: agent.meta.generation } : {}),
          ...(agent.observedGeneration !== undefined ? { observedGeneration: agent.observedGeneration } : {}),
        }
      : { exists: false, ready: null, accepted: null },
    helmRelease: release ? releaseFacts(release) : NO_RELEASE,
    deployment: deploymentFacts(deployment),
    pods: podStatuses,
    events: summarizeEvents(objects.events, name, podStatuses.map((p) => p.name)),
  };
  return { name, namespace, ...statusVerdict(facts, options), ...releaseTop(facts.helmRelease), ...facts };
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
    kube.list(types.event, namespace, { fieldSelector: 'type=Warning' }).catch((): KubeObject[] => []),
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

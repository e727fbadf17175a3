/**
 * Finding an agent's objects as get_agent does: the kagent Agent CR, then the HelmRelease its
 * provenance labels name (maybe in another namespace), else the release named after the agent. One
 * round of concurrent reads; a second only when the labels point elsewhere or name a release the first
 * round missed, since two concurrent reads may straddle a create and only reading the release again
 * tells a bare CR from one just written. A name no Kubernetes object can have finds nothing, unasked.
 * A release of another chart is not the agent's (agent-chart.ts): it is kept apart as `foreign`.
 */
import { notFound, type AppError } from '../../core/errors.js';
import { notAnAgent, rendersAgentChart } from './agent-chart.js';
import { isObjectName } from '../../core/names.js';
import type { KubeObject, KubePort } from '../ports.js';
import { provenanceOf } from './read-model.js';
import { getAnyAgent } from './agent-objects.js';
import type { ResourceTypes } from '../resources.js';

export interface AgentObjects {
  namespace: string;
  name: string;
  agent?: KubeObject;
  release?: KubeObject;
  /** The 404 to answer when the HelmRelease found renders another chart: it is no agent, never written. */
  foreign?: AppError;
}

/** The Agent CR and its release; either may be absent. */
export async function lookupAgent(
  kube: KubePort, types: ResourceTypes, namespace: string, name: string, chartUrl: string,
): Promise<AgentObjects> {
  const found = await lookupObjects(kube, types, namespace, name);
  const { release } = found;
  if (!release || await rendersAgentChart(kube, types, release, chartUrl, namespace)) return found;
  const foreign = notAnAgent(namespace, name, release, chartUrl);
  return { namespace, name, ...(found.agent ? { agent: found.agent } : {}), foreign };
}

async function lookupObjects(
  kube: KubePort, types: ResourceTypes, namespace: string, name: string,
): Promise<AgentObjects> {
  if (!isObjectName(name)) return { namespace, name };
  const [agent, sameName] = await Promise.all([
    getAnyAgent({ types }, kube, namespace, name),
    kube.get(types.helmRelease, namespace, name),
  ]);
  const labelled = agent ? provenanceOf(agent) : undefined;
  if (labelled && (labelled.name !== name || labelled.namespace !== namespace || !sameName)) {
    const release = await kube.get(types.helmRelease, labelled.namespace, labelled.name);
    return { namespace, name, agent, release: release ?? sameName };
  }
  return { namespace, name, agent, release: sameName };
}

/**
 * What a caller who named an agent that is not there does next, after the text clients compare
 * (`not found: agent <ns>/<name>`), as a missing revision names list_agent_revisions.
 */
const LIST_AGENTS = '(list_agents lists the agents there are)';

/** The 404 of get_agent and get_agent_status for an agent that has neither an Agent CR nor a HelmRelease. */
export function agentNotFound(namespace: string, name: string) {
  return notFound(`agent ${namespace}/${name}: no Agent and no HelmRelease of that name ${LIST_AGENTS}`);
}

/**
 * The 404 of the writes (update, delete, validate in update mode) for an agent with
 * neither object: the Go service's write guard (`writableHelmRelease`) words it shorter
 * than get does, and clients compare the texts (their start: the next step follows).
 */
export function noAgentToWrite(namespace: string, name: string) {
  return notFound(`agent ${namespace}/${name} ${LIST_AGENTS}`);
}

/** The objects, or the 404 when there are none (naming a release of another chart that has the name). */
export function requireAgent(objects: AgentObjects): AgentObjects {
  if (objects.agent || objects.release) return objects;
  throw objects.foreign ?? agentNotFound(objects.namespace, objects.name);
}

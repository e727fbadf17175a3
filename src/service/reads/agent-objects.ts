/**
 * The kagent Agent of an agent, of either chart line: chart 0.x renders a `kagent.dev` Agent, chart 2.x an
 * `api.kagent.dev` one of the same name. Both are read at once; while a namespace migrates both may exist for a
 * moment (the old one is removed with the release's upgrade), and the 2.x one is the agent's, since a release
 * only moves forward to it. A group the cluster does not serve has no Agent.
 */
import { isAppError } from '../../core/errors.js';
import type { Gvr, KubeObject, KubePort } from '../ports.js';
import type { ResourceTypes } from '../resources.js';

async function served<T>(read: () => Promise<T>, none: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    // A 404 for the resource itself (the group not served) means there is no such object. A caller who may not
    // read the other chart line's Agents learns nothing of them, and keeps the reads of the line it may read.
    if (isAppError(err, 'not_found', 'forbidden')) return none;
    throw err;
  }
}

/** The Agent named `name` of either line, the 2.x one first. */
export async function getAnyAgent(
  env: { types: ResourceTypes }, kube: KubePort, namespace: string, name: string,
): Promise<KubeObject | undefined> {
  const v2type: Gvr | undefined = env.types.agentV2;
  const [v1, v2] = await Promise.all([
    kube.get(env.types.agent, namespace, name),
    v2type ? served(() => kube.get(v2type, namespace, name, { onChance: true }), undefined)
      : Promise.resolve(undefined),
  ]);
  return v2 ?? v1;
}

/** Every Agent of a namespace, of both lines; where one name has both, the 2.x one. */
export async function listAnyAgents(env: { types: ResourceTypes }, kube: KubePort, namespace: string):
Promise<KubeObject[]> {
  const v2type = env.types.agentV2;
  const [v1, v2] = await Promise.all([
    kube.list(env.types.agent, namespace),
    v2type ? served<KubeObject[]>(() => kube.list(v2type, namespace, { onChance: true }), [])
      : Promise.resolve<KubeObject[]>([]),
  ]);
  if (v2.length === 0) return v1;
  const names = new Set(v2.map((a) => a.metadata.name));
  return [...v1.filter((a) => !names.has(a.metadata.name)), ...v2];
}

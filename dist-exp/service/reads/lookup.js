/**
 * Finding an agent's objects as get_agent does: the kagent Agent CR, then the HelmRelease its
 * provenance labels name (maybe in another namespace), else the release named after the agent. One
 * round of concurrent reads; a second only when the labels point elsewhere or name a release the first
 * round missed, since two concurrent reads may straddle a create and only reading the release again
 * tells a bare CR from one just written. A name no Kubernetes object can have finds nothing, unasked.
 */
import { notFound } from '../../core/errors.js';
import { isObjectName } from '../../core/names.js';
import { provenanceOf } from './read-model.js';
/** The Agent CR and its release; either may be absent. */
export async function lookupAgent(kube, types, namespace, name) {
    if (!isObjectName(name))
        return { namespace, name };
    const [agent, sameName] = await Promise.all([
        kube.get(types.agent, namespace, name),
        kube.get(types.helmRelease, namespace, name),
    ]);
    const labelled = agent ? provenanceOf(agent) : undefined;
    if (labelled && (labelled.name !== name || labelled.namespace !== namespace || !sameName)) {
        const release = await kube.get(types.helmRelease, labelled.namespace, labelled.name);
        return { namespace, name, agent, release: release ?? sameName };
    }
    return { namespace, name, agent, release: sameName };
}
/** The 404 of get_agent and get_agent_status for an agent that has neither an Agent CR nor a HelmRelease. */
export function agentNotFound(namespace, name) {
    return notFound(`agent ${namespace}/${name}: no Agent and no HelmRelease of that name`);
}
/**
 * The 404 of the writes (update, delete, validate in update mode) for an agent with
 * neither object: the Go service's write guard (`writableHelmRelease`) words it shorter
 * than get does, and clients compare the texts.
 */
export function noAgentToWrite(namespace, name) {
    return notFound(`agent ${namespace}/${name}`);
}
/** The objects, or the 404 when there are none. */
export function requireAgent(objects) {
    if (!objects.agent && !objects.release)
        throw agentNotFound(objects.namespace, objects.name);
    return objects;
}
//# sourceMappingURL=lookup.js.map
/**
 * What the sandbox's A2A responder answers from: an Agent's display name (the chart's
 * `ui.giantswarm.io/display-name` annotation, else its name) and its toolset (the
 * `toolset` value of the HelmRelease that rendered it, found by Flux's provenance labels).
 * A Ready Agent of either kagent group is served: `kagent.dev`'s (chart 0.x, on its pods) first,
 * then `api.kagent.dev`'s (chart 2.x, on its Harness).
 */
import { asObject, isObject, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import type { AgentFacts } from './responder.js';

/** True when the Agent's Ready condition is True (kagent registers an A2A handler for it then). */
export function isReady(agent: JsonObject): boolean {
  const conditions = asObject(agent.status).conditions;
  return Array.isArray(conditions) && conditions.some((c) => isObject(c) && c.type === 'Ready' && c.status === 'True');
}

/** The Ready Agent kagent serves at `<namespace>/<name>`, of either group, or undefined. */
export function servedAgent(store: SandboxStore, namespace: string, name: string): JsonObject | undefined {
  return ['agents.kagent.dev', 'agents.api.kagent.dev'].map((resource) => store.find(resource, namespace, name))
    .find((agent): agent is JsonObject => agent !== undefined && isReady(agent));
}

export function agentFacts(store: SandboxStore, agent: JsonObject): AgentFacts {
  const meta = asObject(agent.metadata);
  const name = String(meta.name);
  const annotations = asObject(meta.annotations);
  const labels = asObject(meta.labels);
  const displayName = typeof annotations['ui.giantswarm.io/display-name'] === 'string'
    ? annotations['ui.giantswarm.io/display-name'] : name;
  const releaseName = labels['helm.toolkit.fluxcd.io/name'];
  const releaseNamespace = labels['helm.toolkit.fluxcd.io/namespace'];
  const release = typeof releaseName === 'string' && typeof releaseNamespace === 'string'
    ? store.find('helmreleases', releaseNamespace, releaseName) : undefined;
  const toolset = asObject(asObject(release?.spec).values).toolset;
  return { name, displayName, toolset: Array.isArray(toolset)
    ? toolset.filter((t): t is string => typeof t === 'string') : [] };
}

/**
 * list_agents and get_agent. List answers from three concurrent namespace
 * lists (Agents, HelmReleases, OCIRepositories) plus, only when an Agent's provenance
 * labels name a release in another namespace, one concurrent round of gets for those:
 * at most two sequential API round trips, whatever the number of agents.
 */
import { chartNameOf } from '../core/compose.js';
import type { Agent } from '../core/types.js';
import { lookupAgent, requireAgent } from './lookup.js';
import type { KubeObject, KubePort } from './ports.js';
import { agentFromCr, agentFromRelease, agentOf, provenanceOf, withRelease } from './read-model.js';
import type { ResourceTypes } from './resources.js';

const key = (ns: string, name: string): string => `${ns}/${name}`;

/** The names of the namespace's sources of the agent chart: the chart name plus every OCIRepository of the chart URL. */
export function agentChartSources(sources: readonly KubeObject[], chartUrl: string): Set<string> {
  const names = new Set([chartNameOf(chartUrl)]);
  for (const source of sources) {
    if ((source.spec as { url?: unknown } | undefined)?.url === chartUrl) names.add(source.metadata.name);
  }
  return names;
}

/** True when the release renders the agent chart from one of `sources` in `namespace`. */
export function isAgentRelease(release: KubeObject, sources: ReadonlySet<string>, namespace: string): boolean {
  const chartRef = (release.spec as { chartRef?: { kind?: unknown; name?: unknown; namespace?: unknown } } | undefined)?.chartRef;
  if (!chartRef || chartRef.kind !== 'OCIRepository' || typeof chartRef.name !== 'string') return false;
  const refNamespace = typeof chartRef.namespace === 'string' ? chartRef.namespace : '';
  return sources.has(chartRef.name) && (refNamespace === '' || refNamespace === namespace);
}

export interface ReadContext {
  kube: KubePort;
  types: ResourceTypes;
  chartUrl: string;
}

/** Every agent of the namespace: Agent CRs with their releases, plus releases not rendered yet. */
export async function listAgents(rc: ReadContext, namespace: string): Promise<Agent[]> {
  const { kube, types } = rc;
  const [crs, releases, sources] = await Promise.all([
    kube.list(types.agent, namespace),
    kube.list(types.helmRelease, namespace),
    kube.list(types.ociRepository, namespace),
  ]);
  const local = new Map(releases.map((r) => [r.metadata.name, r]));
  const pairs: { cr: KubeObject; release?: KubeObject; foreign?: { name: string; namespace: string } }[] = [];
  for (const cr of crs) {
    const labelled = provenanceOf(cr);
    if (labelled && labelled.namespace !== namespace) pairs.push({ cr, foreign: labelled });
    else pairs.push({ cr, release: local.get(labelled?.name ?? cr.metadata.name) });
  }
  await Promise.all(pairs.filter((p) => p.foreign).map(async (p) => {
    p.release = await kube.get(types.helmRelease, p.foreign!.namespace, p.foreign!.name);
  }));

  const matched = new Set(pairs.flatMap((p) => (p.release ? [key(p.release.metadata.namespace ?? '', p.release.metadata.name)] : [])));
  const agents = pairs.map((p) => withRelease(agentFromCr(p.cr), p.release));
  const chartSources = agentChartSources(sources, rc.chartUrl);
  for (const release of releases) {
    if (matched.has(key(namespace, release.metadata.name))) continue;
    if (!isAgentRelease(release, chartSources, namespace)) continue;
    agents.push(withRelease(agentFromRelease(release, release.metadata.name), release));
  }
  return agents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One agent: from its Agent CR when kagent rendered it, else from its release. */
export async function getAgent(rc: ReadContext, namespace: string, name: string): Promise<Agent> {
  const objects = requireAgent(await lookupAgent(rc.kube, rc.types, namespace, name));
  return agentOf(objects.agent, objects.release, name);
}

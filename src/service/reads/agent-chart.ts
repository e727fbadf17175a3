/**
 * Which HelmReleases are agents: those rendering the agent chart, from the source named after the
 * chart or any OCIRepository of the chart's URL, in their own namespace. Every other release of a
 * managed namespace (another team's podinfo, say) is not an agent: it is never listed, read,
 * written, deleted or rolled back, and its chart source is never removed.
 */
import { chartNameOf } from '../../core/writes/compose.js';
import { notFound } from '../../core/errors.js';
import { parseHelmRelease, releaseSource } from '../../core/objects/helm-release-view.js';
import { parseOciRepository } from '../../core/objects/oci-repository-view.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { ResourceTypes } from '../resources.js';

/** The names of the namespace's sources of the agent chart: the chart name plus every OCIRepository of the chart
 * URL. */
export function agentChartSources(sources: readonly KubeObject[], chartUrl: string): Set<string> {
  const names = new Set([chartNameOf(chartUrl)]);
  for (const source of sources) {
    if (parseOciRepository(source).url === chartUrl) names.add(source.metadata.name);
  }
  return names;
}

/** True when the release renders the agent chart from one of `sources` in `namespace`. */
export function isAgentRelease(release: KubeObject, sources: ReadonlySet<string>, namespace: string): boolean {
  const { chartRef } = parseHelmRelease(release);
  if (chartRef?.kind !== 'OCIRepository' || chartRef.name === undefined) return false;
  const refNamespace = chartRef.namespace ?? '';
  // A release placed on a workload cluster renders from its own namespace's source (org-<organization>).
  const own = release.metadata.namespace ?? namespace;
  return sources.has(chartRef.name) && (refNamespace === '' || refNamespace === namespace || refNamespace === own);
}

/**
 * True when `release` renders the agent chart; reads the OCIRepository it names only when that is
 * not the source named after the chart (agent-manager writes that one; others are rare).
 */
export async function rendersAgentChart(
  kube: KubePort, types: ResourceTypes, release: KubeObject, chartUrl: string, namespace?: string,
): Promise<boolean> {
  const at = namespace ?? release.metadata.namespace ?? '';
  const named = new Set([chartNameOf(chartUrl)]);
  if (isAgentRelease(release, named, at)) return true;
  const ref = releaseSource(parseHelmRelease(release), release.metadata.namespace ?? at);
  if (!ref) return false;
  const source = await kube.get(types.ociRepository, ref.namespace, ref.name);
  return source !== undefined && isAgentRelease(release, agentChartSources([source], chartUrl), at);
}

/** The 404 of an agent whose name a HelmRelease of another chart has. */
export function notAnAgent(namespace: string, name: string, release: KubeObject, chartUrl: string) {
  const ref = parseHelmRelease(release).chartRef;
  const renders = ref?.name !== undefined ? `renders ${String(ref.kind)} ${ref.name}` : 'has no chartRef';
  return notFound(`agent ${namespace}/${name}: HelmRelease ${release.metadata.namespace ?? namespace}/` +
    `${release.metadata.name} ${renders}, not the agent chart ${chartUrl}, so it is not an agent; agent-manager ` +
    `reads and writes only releases of the agent chart`);
}

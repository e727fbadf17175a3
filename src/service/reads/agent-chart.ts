/**
 * Which HelmReleases are agents: those rendering the agent chart, from the source named after the
 * chart or any OCIRepository of the chart's URL, in their own namespace. Every other release of a
 * managed namespace (another team's podinfo, say) is not an agent: it is never listed, read,
 * written, deleted or rolled back, and its chart source is never removed.
 */
import { chartNameOf } from '../../core/writes/compose.js';
import { notFound } from '../../core/errors.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { ResourceTypes } from '../resources.js';

type ChartRef = { kind?: unknown; name?: unknown; namespace?: unknown };

/** The names of the namespace's sources of the agent chart: the chart name plus every OCIRepository of the chart
 * URL. */
export function agentChartSources(sources: readonly KubeObject[], chartUrl: string): Set<string> {
  const names = new Set([chartNameOf(chartUrl)]);
  for (const source of sources) {
    if ((source.spec as { url?: unknown } | undefined)?.url === chartUrl) names.add(source.metadata.name);
  }
  return names;
}

/** True when the release renders the agent chart from one of `sources` in `namespace`. */
export function isAgentRelease(release: KubeObject, sources: ReadonlySet<string>, namespace: string): boolean {
  const chartRef = (release.spec as { chartRef?: ChartRef } | undefined)?.chartRef;
  if (!chartRef || chartRef.kind !== 'OCIRepository' || typeof chartRef.name !== 'string') return false;
  const refNamespace = typeof chartRef.namespace === 'string' ? chartRef.namespace : '';
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
  const ref = (release.spec as { chartRef?: ChartRef } | undefined)?.chartRef;
  if (!ref || ref.kind !== 'OCIRepository' || typeof ref.name !== 'string') return false;
  const sourceNamespace = typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace
    : release.metadata.namespace ?? at;
  const source = await kube.get(types.ociRepository, sourceNamespace, ref.name);
  return source !== undefined && isAgentRelease(release, agentChartSources([source], chartUrl), at);
}

/** The 404 of an agent whose name a HelmRelease of another chart has. */
export function notAnAgent(namespace: string, name: string, release: KubeObject, chartUrl: string) {
  const ref = (release.spec as { chartRef?: ChartRef } | undefined)?.chartRef;
  const renders = ref && typeof ref.name === 'string' ? `renders ${String(ref.kind)} ${ref.name}` : 'has no chartRef';
  return notFound(`agent ${namespace}/${name}: HelmRelease ${release.metadata.namespace ?? namespace}/` +
    `${release.metadata.name} ${renders}, not the agent chart ${chartUrl}, so it is not an agent; agent-manager ` +
    `reads and writes only releases of the agent chart`);
}

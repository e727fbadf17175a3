/**
 * What migrate reads of one namespace before it decides anything: the agent releases (those rendering from an
 * OCIRepository of the agent chart), each with its line (of the source its chartRef names), who writes it and
 * whether it is suspended; its skills pinned through the same SkillPinner every write uses (a skill that cannot be
 * pinned becomes that release's refusal, so it stops the namespace); the chart sources; and the Agents with no
 * release behind them (reported, never touched). Nothing is written here.
 */
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE, type Values } from '../../core/writes/compose.js';
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import type { ReleaseFacts, ReleaseOwner } from '../../core/migration/plan.js';
import type { SkillsSpec } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import { lineOf } from '../chart-lines/line-of.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';
import { listAnyAgents } from '../reads/agent-objects.js';
import { kustomizationOf, provenanceOf } from '../reads/read-model.js';
import { isLive } from '../chart-lines/shared-source.js';
import { parseHelmRelease, releaseSource } from '../../core/objects/helm-release-view.js';
import { parseOciRepository } from '../../core/objects/oci-repository-view.js';
import { SkillPinner } from '../writes/skill-pinning.js';
import { asObject, type JsonObject } from '../../core/json.js';

/** A namespace as migrate found it. */
export interface NamespaceRead {
  namespace: string;
  releases: Array<ReleaseFacts & { object: KubeObject; source: string }>;
  /** The OCIRepositories of the agent chart, by name. */
  sources: Map<string, KubeObject>;
  bareAgents: string[];
}

function ownerOf(release: KubeObject): { owner: ReleaseOwner; kustomization?: string } {
  const kustomization = kustomizationOf(release);
  if (kustomization !== undefined) {
    const ns = release.metadata.labels?.['kustomize.toolkit.fluxcd.io/namespace'] ?? release.metadata.namespace;
    return { owner: 'gitops', kustomization: `${ns}/${kustomization}` };
  }
  return { owner: release.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY_VALUE ? 'agent-manager' : 'external' };
}

/** The 0.x skills block with every skill pinned, or why one could not be. */
async function pinned(pinner: SkillPinner, values: Values): Promise<{ values: Values } | { refusal: string }> {
  const block = asObject(values.skills);
  if (Array.isArray(values.skills) || !pinner.enabled || (!block.gitRefs && !block.refs)) return { values };
  // safe: the block as the release holds it, written through validateSkills by our writes; one edited by hand
  // into another shape fails the pin below, which refuses the move instead of writing it.
  const spec = { gitRefs: block.gitRefs, refs: block.refs } as SkillsSpec;
  try {
    const { skills } = await pinner.pin(spec);
    const next: JsonObject = { ...block };
    if (skills?.gitRefs) next.gitRefs = skills.gitRefs;
    if (skills?.refs) next.refs = skills.refs;
    return { values: { ...values, skills: next } };
  } catch (err) {
    return { refusal: `a skill could not be pinned, so the namespace stays where it is: ` +
      `${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Reads one namespace; `to` decides whether skills are pinned (only 2.x needs them pinned). */
export async function readNamespace(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, namespace: string, to: ChartLine,
): Promise<NamespaceRead> {
  const [releases, repositories, agents] = await Promise.all([
    kube.list(env.types.helmRelease, namespace),
    kube.list(env.types.ociRepository, namespace),
    listAnyAgents(env, kube, namespace),
  ]);
  const sources = new Map(repositories
    .filter((s) => isLive(s) && parseOciRepository(s).url === env.compose.chartOciUrl)
    .map((s) => [s.metadata.name, s]));
  const pinner = new SkillPinner(env.deps.skillResolver, ctx);
  const out: NamespaceRead['releases'] = [];
  for (const release of releases.filter(isLive)) {
    const view = parseHelmRelease(release);
    const ref = releaseSource(view, release.metadata.namespace ?? '');
    const source = ref && ref.namespace === namespace ? sources.get(ref.name) : undefined;
    if (!ref || !source) continue;
    const line = lineOf(env, source, `the OCIRepository ${namespace}/${ref.name}`);
    const { values } = view;
    const skills = to === '2.x' && line !== to ? await pinned(pinner, values) : { values };
    out.push({
      name: release.metadata.name, object: release, source: ref.name, line, ...ownerOf(release),
      suspended: view.suspended,
      values: 'values' in skills ? skills.values : values, live: values,
      ...('refusal' in skills ? { pinRefusal: skills.refusal } : {}),
    });
  }
  const released = new Set(out.map((r) => r.name));
  const bareAgents = agents.filter((a) => !released.has(provenanceOf(a)?.name ?? a.metadata.name))
    .map((a) => a.metadata.name);
  return { namespace, releases: out, sources, bareAgents };
}

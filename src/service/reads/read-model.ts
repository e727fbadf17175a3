/**
 * How an agent is read back from cluster objects: the kagent `Agent` CR, the
 * HelmRelease that owns it (Flux provenance labels, else the release of the same name)
 * and that release's values. Pure functions over plain Kubernetes JSON. A suspended release's agent says
 * `suspended: true`, and is not `ready` while it has a change Flux has not applied (core/status/rollout-stage.ts).
 */
import { conditionStatus, findCondition, parseConditions } from '../../core/status/conditions.js';
import { readToolset } from '../../core/toolset/toolset-grammar.js';
import { agentSkills } from '../../core/skills/skill-reads.js';
import { parseSkillRefs, SKILL_REFS_ANNOTATION } from '../../core/skills/skill-pins.js';
import type { Agent, AgentSkills, Condition, HelmReleaseRef } from '../../core/types.js';
import { agentVersion } from './agent-version.js';
import type { KubeObject } from '../ports.js';
import { CLUSTER_LABEL } from '../../core/fleet/target-cluster.js';
import { ErrorCode } from '../../core/errors.js';
import { templatePlugins } from '../../core/chart-lines/agent-2x.js';
import { agentOfLine } from '../../core/chart-lines/agent-0x.js';
import { suspendedPending } from '../../core/status/rollout-stage.js';
import { asObject, optionalString, type JsonObject } from '../../core/json.js';
import { parseAgent } from '../../core/objects/agent-view.js';
import { parseHelmRelease, type HelmReleaseView } from '../../core/objects/helm-release-view.js';

export const RELEASE_NAME_LABEL = 'helm.toolkit.fluxcd.io/name';
export const RELEASE_NAMESPACE_LABEL = 'helm.toolkit.fluxcd.io/namespace';
export const KUSTOMIZATION_LABEL = 'kustomize.toolkit.fluxcd.io/name';

/** The release an Agent names through its provenance labels, if any. */
export function provenanceOf(agent: KubeObject): { name: string; namespace: string } | undefined {
  const labels = agent.metadata.labels ?? {};
  const name = labels[RELEASE_NAME_LABEL];
  if (!name) return undefined;
  return { name, namespace: labels[RELEASE_NAMESPACE_LABEL] || agent.metadata.namespace || '' };
}

/** The object's conditions as we report them. */
export function conditionsOf(object: KubeObject | undefined): Condition[] {
  return parseConditions(asObject(object?.status).conditions);
}

/** The identity fields of an agent read from its kagent Agent CR, of either chart line. */
export function agentFromCr(object: KubeObject): Agent {
  return prune(agentOfLine(parseAgent(object)));
}

/** The skills a release's values carry, each pin beside what its annotation says was asked. */
function releaseSkills(release: HelmReleaseView): AgentSkills | undefined {
  return agentSkills(release.values.skills, parseSkillRefs(release.meta.annotations[SKILL_REFS_ANNOTATION]));
}

/**
 * The name of the Kustomization that applied the release, when its label is present: its desired
 * state lives in git. A label with an empty value still marks it so (its presence is what counts,
 * as kustomize-controller's garbage collection reads it), never as a release free to write.
 */
export function kustomizationOf(release: KubeObject): string | undefined {
  return kustomizationLabel(release.metadata.labels ?? {});
}

function kustomizationLabel(labels: Readonly<Record<string, string>>): string | undefined {
  return Object.hasOwn(labels, KUSTOMIZATION_LABEL) ? String(labels[KUSTOMIZATION_LABEL]) : undefined;
}

/** The release reference reported on an agent. */
export function helmReleaseRef(view: HelmReleaseView): HelmReleaseRef {
  const { status, chartRef } = view;
  const ready = findCondition(status.conditions, 'Ready');
  return prune({
    name: view.meta.name,
    namespace: view.meta.namespace ?? '',
    ready: conditionStatus(status.conditions, 'Ready'),
    reason: optionalString(ready?.reason),
    message: optionalString(ready?.message),
    chartVersion: optionalString(status.history[0]?.chartVersion) ?? optionalString(status.lastAttemptedRevision),
    lastAttemptedRevision: optionalString(status.lastAttemptedRevision),
    suspended: view.suspended,
    gitOpsOwned: kustomizationLabel(view.meta.labels) !== undefined,
    deleting: Boolean(view.meta.deletionTimestamp),
    chartRef: chartRef?.kind
      ? prune({ kind: chartRef.kind, name: chartRef.name ?? '', namespace: optionalString(chartRef.namespace) })
      : undefined,
  });
}

/**
 * The workload cluster a release installs into: Flux's `spec.kubeConfig` with the cluster
 * label, in an organization's namespace (`org-<organization>`), placed as core/fleet/target-cluster.ts does.
 */
export function placementOf(
  view: HelmReleaseView,
): { organization: string; cluster: string; namespace?: string } | undefined {
  const cluster = optionalString(view.meta.labels[CLUSTER_LABEL]);
  const namespace = view.meta.namespace ?? '';
  if (!cluster || !view.remote || !namespace.startsWith('org-')) return undefined;
  return { organization: namespace.slice('org-'.length), cluster, namespace: optionalString(view.targetNamespace) };
}

/** The agent a release installs: `releaseName` for one placed on a workload cluster, else its own name. */
export function releaseAgentName(release: KubeObject): string {
  const view = parseHelmRelease(release);
  return (placementOf(view) && optionalString(view.releaseName)) || release.metadata.name;
}

/** The agent as its release's values describe it, before kagent rendered anything. */
export function agentFromRelease(
  release: KubeObject, agentName?: string, view: HelmReleaseView = parseHelmRelease(release),
): Agent {
  const { values } = view;
  const agentValues = asObject(values.agent);
  // A release placed on a workload cluster installs the agent into its target namespace there.
  const placed = placementOf(view);
  return prune({
    name: agentName ?? optionalString(agentValues.name) ?? view.meta.name,
    namespace: placed?.namespace ?? view.meta.namespace ?? '',
    exists: false,
    displayName: optionalString(agentValues.displayName),
    description: optionalString(agentValues.description),
    modelConfig: optionalString(asObject(values.modelConfig).name),
    runtime: optionalString(agentValues.runtime),
    iconUrl: optionalString(agentValues.iconUrl),
    systemMessage: optionalString(agentValues.systemMessage),
    skills: releaseSkills(view),
    ...line2Fields(values),
    ready: null,
    accepted: null,
    managed: 'helmrelease',
  });
}

/** The 2.x fields a release's values set (the desired Harness and plugins), which win over the rendered ones. */
function line2Fields(values: JsonObject): Pick<Agent, 'harness' | 'plugins'> {
  const harness = optionalString(asObject(values.agent).harness);
  const plugins = Array.isArray(values.plugins) ? templatePlugins(values.plugins.map((p) => {
    const { skills, ...source } = asObject(p);
    return { source, skills };
  })) : undefined;
  return { ...(harness ? { harness } : {}), ...(plugins ? { plugins } : {}) };
}

/** An agent with its release folded in: ownership, the release reference, values and toolset. */
export function withRelease(
  agent: Agent, release: KubeObject | undefined, view = release && parseHelmRelease(release),
): Agent {
  if (!release || !view) return agent;
  const { values, valuesProblem: malformed } = view;
  // The release's values decide the toolset, not what kagent rendered on the Agent CR.
  const { toolset: _toolset, toolsetProblem: _problem, implicitFullAccess: _implicit, ...rest } = agent;
  // The skills too: the values hold the pins that run, the annotation what was asked for.
  const skills = values.skills !== undefined ? releaseSkills(view) : rest.skills;
  const placed = placementOf(view);
  const ref = helmReleaseRef(view);
  return prune({
    ...rest,
    ...(placed ? { organization: placed.organization, cluster: placed.cluster } : {}),
    // A suspended release's change Flux has not applied: kagent's Ready speaks of the spec before it.
    ...(suspendedPending(releaseGenerations(view)) ? { ready: false } : {}),
    ...(ref.suspended ? { suspended: true as const } : {}),
    skills,
    ...line2Fields(values),
    managed: ref.gitOpsOwned ? 'gitops' : 'helmrelease',
    helmRelease: ref,
    values: malformed ? undefined : values,
    resourceVersion: view.meta.resourceVersion || undefined,
    version: agentVersion(release),
    // Values that are no object say nothing of the toolset: not "no toolset", which reads as full access.
    ...(malformed ? { toolsetProblem: `${malformed}, so the toolset cannot be read` } : readToolset(values)),
    ...(malformed && !rest.error ? { error: { code: ErrorCode.Invalid, message: malformedText(view, malformed) } }
      : {}),
  });
}

/** What suspendedPending reads of a release: whether it is suspended, its generation and the last one acted on. */
function releaseGenerations(release: HelmReleaseView) {
  return {
    suspended: release.suspended,
    generation: release.meta.generation,
    lastAttemptedGeneration: release.status.lastAttemptedGeneration,
  };
}

function malformedText(release: HelmReleaseView, problem: string): string {
  const { namespace = '', name } = release.meta;
  return `the HelmRelease ${namespace}/${name} is malformed: ${problem}; fix its spec.values ` +
    `(kubectl edit helmrelease -n ${namespace} ${name}) or delete the agent and create it again`;
}

/** The identity fields a release's values state and an Agent renders. */
function identityOf(agent: Agent): NonNullable<Agent['rendered']> {
  const { displayName, description, modelConfig, runtime, iconUrl, systemMessage, harness, skills, plugins } = agent;
  return { displayName, description, modelConfig, runtime, iconUrl, systemMessage, harness, skills, plugins };
}

/**
 * The read model of an agent from whatever objects exist (at least one of them). With a release, the identity
 * fields are the desired state, the release's values, so a write's answer and every read right after it say what
 * was written; what kagent has rendered so far is `rendered` (a bare Agent has only what it renders, at the top).
 */
export function agentOf(cr: KubeObject | undefined, release: KubeObject | undefined, name: string): Agent {
  const view = release && parseHelmRelease(release);
  if (!cr) return withRelease(agentFromRelease(release!, name, view), release, view);
  const rendered = agentFromCr(cr);
  if (!release || !view || view.valuesProblem) return withRelease(rendered, release, view);
  const agent: Agent = { ...rendered, ...identityOf(agentFromRelease(release, name, view)) };
  return withRelease({ ...agent, rendered: prune(identityOf(rendered)) }, release, view);
}

/**
 * `value` without its undefined fields, so JSON omits them. A new object when there is
 * one to drop (deleting keys would leave V8 a slow dictionary object, and every agent of
 * a list is serialized), else `value` itself.
 */
export function prune<T extends object>(value: T): T {
  let clean = true;
  for (const key in value) {
    if (value[key] === undefined) {
      clean = false;
      break;
    }
  }
  if (clean) return value;
  const out: Partial<T> = {};
  for (const key in value) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  // safe: `out` is `value` without the keys whose value is undefined, which only optional fields of T may be.
  return out as T;
}

/**
 * Composition: an agent is a Flux HelmRelease of the agent chart with inline values, rendering from the
 * namespace's shared OCIRepository of the chart (a semver range), as the portal composes it. Only what
 * the caller set is emitted (blank strings are unset) so chart defaults cover the rest; `agent.name` and
 * `modelConfig.name` are always pinned, so the Agent's name never depends on Flux's release naming; the
 * toolset is the top-level `toolset` value as given; `muster.toolNames` is never written.
 * Pure: plain objects in and out; YAML only at the edge (composeManifests).
 */
import type { AgentSpec, GitRef, Manifests, SkillsSpec } from '../types.js';
import { gitSkillName } from '../skills/skill-input.js';
import { toYaml } from '../yaml.js';

export { gitSkillName };

/** The platform side of the composition (from the serve flags). */
export interface ComposeConfig {
  /** The agent chart, e.g. oci://gsoci.azurecr.io/charts/giantswarm/agent. */
  chartOciUrl: string;
  /** The OCIRepository's `ref.semver` range (one chart line, e.g. `0.x` or `2.x`). */
  chartSemver: string;
  /** HelmRelease `spec.interval`, e.g. `10m`. */
  helmReleaseInterval: string;
  /** OCIRepository `spec.interval`, e.g. `30m`. */
  ociRepositoryInterval: string;
  /** HelmRelease `spec.serviceAccountName`; omitted when unset or empty. */
  helmReleaseServiceAccount?: string;
  /** OCIRepository `spec.secretRef.name` (a dockerconfigjson Secret); omitted when unset or empty. */
  chartSecretRef?: string;
  /** OCIRepository `spec.provider`; omitted when unset or `generic` (Flux's default). */
  chartProvider?: string;
  /** The served Flux API versions (group/version). */
  apiVersions: { helmRelease: string; ociRepository: string };
}

/** The label both composed objects carry, and its value. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'agent-manager';

/** Chart values as plain JSON. */
export type Values = Record<string, unknown>;

/** A composed Kubernetes object as plain JSON (core's own minimal object shape). */
export interface ComposedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: Record<string, unknown>;
  [key: string]: unknown;
}

/** True when `s` is a string with something other than whitespace in it. */
export function isSet(s: string | undefined): s is string {
  return typeof s === 'string' && s.trim() !== '';
}

/** The chart name: the last path segment of the chart's OCI URL (`agent` by default). */
export function chartNameOf(ociUrl: string): string {
  const segments = ociUrl.replace(/\/+$/, '').split('/');
  return segments[segments.length - 1] || 'agent';
}

/**
 * The `skills` values block: OCI `refs`, `gitRefs` with their derived names, and
 * `gitAuthSecretRef` for the credential Secret. Undefined when there are no refs and
 * no gitRefs (a credential alone renders nothing in the chart).
 */
export function skillsValues(skills: SkillsSpec | undefined): Values | undefined {
  const refs = skills?.refs ?? [];
  const gitRefs = skills?.gitRefs ?? [];
  if (refs.length === 0 && gitRefs.length === 0) return undefined;
  const out: Values = {};
  if (refs.length > 0) out.refs = [...refs];
  if (gitRefs.length > 0) out.gitRefs = gitRefs.map(gitRefValues);
  if (isSet(skills?.gitAuthSecretName)) out.gitAuthSecretRef = { name: skills.gitAuthSecretName };
  return out;
}

function gitRefValues(ref: GitRef): Values {
  const out: Values = { url: ref.url };
  if (isSet(ref.path)) out.path = ref.path;
  // A commit given is the pin; skill-pins.ts has turned every other ref into one when it ran.
  if (isSet(ref.commit)) out.ref = ref.commit;
  else if (isSet(ref.ref)) out.ref = ref.ref;
  out.name = gitSkillName(ref);
  return out;
}

/** The identity fields of the `agent` block, in the order the chart documents them. */
export const AGENT_STRING_FIELDS = [
  'displayName',
  'description',
  'iconUrl',
  'systemMessage',
  'runtime',
] as const;

/** Composes the chart values of a create request: only what the caller set. */
export function buildValues(spec: AgentSpec): Values {
  const agent: Values = { name: spec.name };
  for (const field of AGENT_STRING_FIELDS) {
    if (isSet(spec[field])) agent[field] = spec[field];
  }
  const values: Values = { agent, modelConfig: { name: spec.modelConfig } };
  const skills = skillsValues(spec.skills);
  if (skills) values.skills = skills;
  if (spec.toolset !== undefined) values.toolset = [...spec.toolset];
  if (spec.labels && Object.keys(spec.labels).length > 0) values.labels = { ...spec.labels };
  if (spec.annotations && Object.keys(spec.annotations).length > 0) {
    values.annotations = { ...spec.annotations };
  }
  return values;
}

/** The HelmRelease of one agent: named after it, rendering from the shared chart source. */
export function buildHelmRelease(
  namespace: string,
  name: string,
  values: Values,
  cfg: ComposeConfig,
): ComposedObject {
  const spec: Record<string, unknown> = { interval: cfg.helmReleaseInterval };
  if (isSet(cfg.helmReleaseServiceAccount)) spec.serviceAccountName = cfg.helmReleaseServiceAccount;
  spec.chartRef = { kind: 'OCIRepository', name: chartNameOf(cfg.chartOciUrl), namespace };
  spec.values = values;
  return {
    apiVersion: cfg.apiVersions.helmRelease,
    kind: 'HelmRelease',
    metadata: { name, namespace, labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE } },
    spec,
  };
}

/** The namespace's shared chart source, named after the chart. */
export function buildOciRepository(namespace: string, cfg: ComposeConfig): ComposedObject {
  return {
    apiVersion: cfg.apiVersions.ociRepository,
    kind: 'OCIRepository',
    metadata: {
      name: chartNameOf(cfg.chartOciUrl),
      namespace,
      labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
    },
    spec: ociRepositorySpec(cfg),
  };
}

/** The source's spec: a private registry adds the pull Secret and, for a cloud one, the provider. */
function ociRepositorySpec(cfg: ComposeConfig): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    interval: cfg.ociRepositoryInterval,
    url: cfg.chartOciUrl,
    ref: { semver: cfg.chartSemver },
  };
  if (isSet(cfg.chartProvider) && cfg.chartProvider !== 'generic') spec.provider = cfg.chartProvider;
  if (isSet(cfg.chartSecretRef)) spec.secretRef = { name: cfg.chartSecretRef };
  return spec;
}

/** Both objects rendered as YAML, plus the values they carry. */
export function composeManifests(
  namespace: string,
  name: string,
  values: Values,
  cfg: ComposeConfig,
): Manifests {
  return {
    ociRepository: toYaml(buildOciRepository(namespace, cfg)),
    helmRelease: toYaml(buildHelmRelease(namespace, name, values, cfg)),
    values,
  };
}

/**
 * The values of an agent on chart 2.x, as the chart's values.yaml documents them ("Chart 2.0"): `agent` with the
 * Harness always named (the requested one, else the installation's), skills and plugins as pinned lists, the
 * read credential only where a git source needs one, the toolset as given, muster's URL where the installation
 * sets one and approval where asked. Only what the caller set is emitted, so the chart's defaults cover the rest.
 * Skills arrive pinned in the input's `{gitRefs, refs}` shape (skill-pins.ts runs first, the same for both lines)
 * and become the chart's list here. Pure.
 */
import { AGENT_STRING_FIELDS, isSet, type Values } from '../writes/compose.js';
import { gitSkillName } from '../skills/skill-input.js';
import { parseSkillOci } from '../skills/skill-oci.js';
import type { AgentSpec, GitRef, SkillsSpec } from '../types.js';
import { asList } from '../json.js';

/** One plugin as create and update take it: a pinned source and the bundle's skills to enable. */
export interface PluginSpec {
  git?: { url: string; commit: string };
  oci?: string;
  path?: string;
  skills: string[];
}

/** The 2.x arguments beside the shared Spec. */
export interface Line2Spec {
  harness?: string;
  /** `agent.egress`: origins the agent's sandbox may reach (chart 2.1 and later). */
  egress?: string[];
  plugins?: PluginSpec[];
  requireApproval?: boolean;
  gitAuthSecretName?: string;
}

/** The installation's side of a 2.x composition. */
export interface Line2Settings {
  /** The platform Harness an agent runs on when the request names none (`--harness-name`, default `kagent`). */
  harnessName: string;
  /** `--muster-url`, written as `muster.url` for agents of the management cluster; empty writes none. */
  musterUrl?: string;
  /** `--skills-git-auth-secret-name`: the installation's read credential for private git skills. */
  skillsGitAuthSecretName?: string;
  /** For an agent on a workload cluster: its muster URL, and no installation credential (the Secret is not there). */
  target?: { musterUrl: string };
}

/** The AGENT_STRING_FIELDS that exist on 2.x (`runtime` is a 0.x field; the Harness decides how an agent runs). */
export const LINE2_AGENT_FIELDS = AGENT_STRING_FIELDS.filter((f) => f !== 'runtime');

/** The mount name of an OCI skill: the last segment of its repository (`r.io/skills/runbooks@sha256:…`: runbooks). */
export function ociSkillName(reference: string): string {
  const parsed = parseSkillOci(reference);
  const repository = 'error' in parsed ? reference.replace(/[@:].*$/, '') : parsed.repository;
  return repository.slice(repository.lastIndexOf('/') + 1);
}

function gitSkillEntry(ref: GitRef): Values {
  // Pinned before composing: the commit is the pin (a ref that is a full commit id counts as one).
  const commit = isSet(ref.commit) ? ref.commit : ref.ref ?? '';
  const entry: Values = { name: gitSkillName(ref), git: { url: ref.url, commit } };
  if (isSet(ref.path)) entry.path = ref.path.trim();
  return entry;
}

/** The pinned skills as the 2.x chart's list: git skills first, as the 0.x chart mounted them, then OCI ones. */
export function skillsList(skills: SkillsSpec | undefined): Values[] {
  const git = (skills?.gitRefs ?? []).map(gitSkillEntry);
  const oci = (skills?.refs ?? []).map((ref) => ({ name: ociSkillName(ref), oci: ref }));
  return [...git, ...oci];
}

/** The plugins list as the chart takes it: each source pinned, its skills as given. */
export function pluginsList(plugins: readonly PluginSpec[] | undefined): Values[] {
  return (plugins ?? []).map((plugin) => {
    const entry: Values = {};
    if (plugin.git) entry.git = { url: plugin.git.url, commit: plugin.git.commit };
    if (isSet(plugin.oci)) entry.oci = plugin.oci;
    if (isSet(plugin.path)) entry.path = plugin.path;
    entry.skills = [...plugin.skills];
    return entry;
  });
}

/** True when a skill or plugin is fetched from git, the only sources the read credential reaches. */
export function hasGitSource(values: Values): boolean {
  return [values.skills, values.plugins]
    .some((list) => asList(list).some((e) => typeof e === 'object' && e !== null && 'git' in e));
}

/** The credential Secret a 2.x agent names: its own, else the installation's (never on a workload cluster). */
export function credentialName(spec: AgentSpec & Line2Spec, settings: Line2Settings): string | undefined {
  const own = spec.gitAuthSecretName ?? spec.skills?.gitAuthSecretName;
  if (isSet(own)) return own;
  return settings.target ? undefined : settings.skillsGitAuthSecretName || undefined;
}

/** Composes the 2.x values of a create request: only what the caller set, the Harness always. */
export function buildValues2x(spec: AgentSpec & Line2Spec, settings: Line2Settings): Values {
  const agent: Values = { name: spec.name };
  for (const field of LINE2_AGENT_FIELDS) {
    if (isSet(spec[field])) agent[field] = spec[field];
  }
  agent.harness = isSet(spec.harness) ? spec.harness : settings.harnessName;
  if (spec.egress !== undefined && spec.egress.length > 0) agent.egress = [...spec.egress];
  const values: Values = { agent, modelConfig: { name: spec.modelConfig } };
  const skills = skillsList(spec.skills);
  if (skills.length > 0) values.skills = skills;
  const plugins = pluginsList(spec.plugins);
  if (plugins.length > 0) values.plugins = plugins;
  const secret = credentialName(spec, settings);
  if (secret && hasGitSource(values)) values.skillsGitAuthSecretRef = { name: secret };
  if (spec.toolset !== undefined) values.toolset = [...spec.toolset];
  const muster: Values = {};
  const url = settings.target ? settings.target.musterUrl : settings.musterUrl;
  if (isSet(url)) muster.url = url;
  if (spec.requireApproval === true) muster.requireApproval = true;
  if (Object.keys(muster).length > 0) values.muster = muster;
  if (spec.labels && Object.keys(spec.labels).length > 0) values.labels = { ...spec.labels };
  if (spec.annotations && Object.keys(spec.annotations).length > 0) values.annotations = { ...spec.annotations };
  return values;
}

/**
 * How an agent of chart 2.x is read back from its `api.kagent.dev` Agent: identity from the annotations and
 * `spec.template` (description, prompt, model, skills, plugins), the Harness from `spec.harnessRef`, and the
 * Agent's own status as `ObjectStatus` (inventory 8.3). `ready` is the Agent's verdict on its revision: Ready and
 * the desired revision the latest successful one, so an Agent still compiling a new revision on its Harness is
 * not reported ready; null while kagent has not reported. Pure functions over plain Kubernetes JSON.
 */
import { conditionStatus, parseConditions } from '../conditions.js';
import { agentSkills } from '../skills/skill-reads.js';
import type { Agent, ObjectStatus, Plugin } from '../types.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const whole = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The group of chart 2.x's kagent objects. */
export const KAGENT_V2_GROUP = 'api.kagent.dev';
export const ICON_URL_ANNOTATION = 'ui.giantswarm.io/icon-url';
const DISPLAY_NAME_ANNOTATION = 'ui.giantswarm.io/display-name';

/** A minimal Kubernetes object as read. */
export interface AgentObject {
  apiVersion?: string;
  metadata: { name: string; namespace?: string; generation?: number; annotations?: Record<string, string> };
  spec?: unknown;
  status?: unknown;
}

/** True for an Agent of chart 2.x (`api.kagent.dev/<v>`). */
export function isLine2Agent(object: { apiVersion?: string } | undefined): boolean {
  return typeof object?.apiVersion === 'string' && object.apiVersion.startsWith(`${KAGENT_V2_GROUP}/`);
}

/** The Agent's status as ObjectStatus: its conditions, generations and revisions. */
export function objectStatus(agent: AgentObject | undefined): ObjectStatus {
  if (!agent) return { exists: false, ready: null, accepted: null };
  const status = obj(agent.status);
  const conditions = parseConditions(status.conditions);
  const desired = whole(status.desiredRevision);
  const latest = whole(status.latestSuccessfulRevision);
  const readyCondition = conditionStatus(conditions, 'Ready');
  const ready = readyCondition === null ? null : readyCondition && desired === latest;
  const warnings = Array.isArray(status.warnings) ? status.warnings.filter((w): w is string => typeof w === 'string')
    : [];
  const out: ObjectStatus = {
    exists: true, ready, accepted: conditionStatus(conditions, 'Accepted'),
    resolvedRefs: conditionStatus(conditions, 'ResolvedRefs'), compatible: conditionStatus(conditions, 'Compatible'),
  };
  const generation = whole(agent.metadata.generation);
  const observed = whole(status.observedGeneration);
  const harness = str(obj(obj(agent.spec).harnessRef).name);
  if (generation !== undefined) out.generation = generation;
  if (observed !== undefined) out.observedGeneration = observed;
  if (harness) out.harness = harness;
  if (desired !== undefined) out.desiredRevision = desired;
  if (latest !== undefined) out.latestSuccessfulRevision = latest;
  if (conditions.length > 0) out.conditions = conditions;
  if (warnings.length > 0) out.warnings = warnings;
  return out;
}

/** A template source (`{git: {url, commit}, path}` or `{oci, path}`) as a plugin's or skill's source fields. */
function sourceFields(source: Json): Pick<Plugin, 'git' | 'oci' | 'path'> {
  const git = obj(source.git);
  const out: Pick<Plugin, 'git' | 'oci' | 'path'> = {};
  if (str(git.url)) out.git = { url: String(git.url), commit: str(git.commit) ?? '' };
  else if (str(source.oci)) out.oci = String(source.oci);
  if (str(source.path)) out.path = String(source.path);
  return out;
}

/** The template's skills in the chart's list shape, so they read as a release's values do. */
function templateSkills(skills: unknown): Json[] {
  return (Array.isArray(skills) ? skills : []).map(obj).map((s) => {
    const source = sourceFields(obj(s.source));
    return { name: str(s.name) ?? '', ...source };
  });
}

/** The template's plugins as the wire shape reports them. */
export function templatePlugins(plugins: unknown): Plugin[] | undefined {
  const list = (Array.isArray(plugins) ? plugins : []).map(obj).map((p) => ({
    ...sourceFields(obj(p.source)),
    skills: Array.isArray(p.skills) ? p.skills.filter((n): n is string => typeof n === 'string') : [],
  }));
  return list.length > 0 ? list : undefined;
}

/** The identity fields of an agent read from its 2.x Agent (the release's values, folded in later, win). */
export function agentFromLine2Cr(cr: AgentObject): Agent {
  const spec = obj(cr.spec);
  const template = obj(spec.template);
  const status = objectStatus(cr);
  const annotations = cr.metadata.annotations ?? {};
  return {
    name: cr.metadata.name,
    namespace: cr.metadata.namespace ?? '',
    exists: true,
    chartLine: '2.x',
    displayName: str(annotations[DISPLAY_NAME_ANNOTATION]),
    description: str(template.description),
    modelConfig: str(obj(template.modelConfig).name),
    iconUrl: str(annotations[ICON_URL_ANNOTATION]),
    systemMessage: str(template.systemPrompt),
    harness: status.harness,
    skills: agentSkills(templateSkills(template.skills)),
    plugins: templatePlugins(template.plugins),
    ready: status.ready,
    accepted: status.accepted,
    conditions: status.conditions,
    status,
    managed: 'none',
  };
}

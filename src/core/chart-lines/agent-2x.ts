/**
 * How an agent of chart 2.x is read back from its `api.kagent.dev` Agent: identity from the annotations and
 * `spec.template` (description, prompt, model, skills, plugins), the Harness from `spec.harnessRef`, and the
 * Agent's own status as `ObjectStatus` (inventory 8.3). `ready` is the Agent's verdict on its revision: Ready and
 * the desired revision the latest successful one, so an Agent still compiling a new revision on its Harness is
 * not reported ready; null while kagent has not reported. Pure functions over plain Kubernetes JSON.
 */
import { conditionStatus, parseConditions } from '../status/conditions.js';
import { agentSkills } from '../skills/skill-reads.js';
import type { Agent, ObjectStatus, Plugin } from '../types.js';
import { asObject, optionalString, wholeNumber, type JsonObject } from '../json.js';

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
  const status = asObject(agent.status);
  const conditions = parseConditions(status.conditions);
  const desired = wholeNumber(status.desiredRevision);
  const latest = wholeNumber(status.latestSuccessfulRevision);
  const readyCondition = conditionStatus(conditions, 'Ready');
  const ready = readyCondition === null ? null : readyCondition && desired === latest;
  const warnings = Array.isArray(status.warnings) ? status.warnings.filter((w): w is string => typeof w === 'string')
    : [];
  const out: ObjectStatus = {
    exists: true, ready, accepted: conditionStatus(conditions, 'Accepted'),
    resolvedRefs: conditionStatus(conditions, 'ResolvedRefs'), compatible: conditionStatus(conditions, 'Compatible'),
  };
  const generation = wholeNumber(agent.metadata.generation);
  const observed = wholeNumber(status.observedGeneration);
  const harness = optionalString(asObject(asObject(agent.spec).harnessRef).name);
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
function sourceFields(source: JsonObject): Pick<Plugin, 'git' | 'oci' | 'path'> {
  const git = asObject(source.git);
  const out: Pick<Plugin, 'git' | 'oci' | 'path'> = {};
  if (optionalString(git.url)) out.git = { url: String(git.url), commit: optionalString(git.commit) ?? '' };
  else if (optionalString(source.oci)) out.oci = String(source.oci);
  if (optionalString(source.path)) out.path = String(source.path);
  return out;
}

/** The template's skills in the chart's list shape, so they read as a release's values do. */
function templateSkills(skills: unknown): JsonObject[] {
  return (Array.isArray(skills) ? skills : []).map(asObject).map((s) => {
    const source = sourceFields(asObject(s.source));
    return { name: optionalString(s.name) ?? '', ...source };
  });
}

/** The template's plugins as the wire shape reports them. */
export function templatePlugins(plugins: unknown): Plugin[] | undefined {
  const list = (Array.isArray(plugins) ? plugins : []).map(asObject).map((p) => ({
    ...sourceFields(asObject(p.source)),
    skills: Array.isArray(p.skills) ? p.skills.filter((n): n is string => typeof n === 'string') : [],
  }));
  return list.length > 0 ? list : undefined;
}

/** The identity fields of an agent read from its 2.x Agent (the release's values, folded in later, win). */
export function agentFromLine2Cr(cr: AgentObject): Agent {
  const spec = asObject(cr.spec);
  const template = asObject(spec.template);
  const status = objectStatus(cr);
  const annotations = cr.metadata.annotations ?? {};
  return {
    name: cr.metadata.name,
    namespace: cr.metadata.namespace ?? '',
    exists: true,
    chartLine: '2.x',
    displayName: optionalString(annotations[DISPLAY_NAME_ANNOTATION]),
    description: optionalString(template.description),
    modelConfig: optionalString(asObject(template.modelConfig).name),
    iconUrl: optionalString(annotations[ICON_URL_ANNOTATION]),
    systemMessage: optionalString(template.systemPrompt),
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

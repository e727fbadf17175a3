/**
 * How an agent of chart 2.x is read back from its `api.kagent.dev` Agent: identity from the annotations and
 * `spec.template` (description, prompt, model, skills, plugins), the Harness from `spec.harnessRef`, and the
 * Agent's own status as `ObjectStatus` (inventory 8.3). `ready` is the Agent's verdict on its revision: Ready and
 * the desired revision the latest successful one, so an Agent still compiling a new revision on its Harness is
 * not reported ready; null while kagent has not reported. Pure functions over plain Kubernetes JSON.
 */
import { conditionStatus } from '../status/conditions.js';
import { agentSkills } from '../skills/skill-reads.js';
import type { Agent, ObjectStatus, Plugin } from '../types.js';
import { asObject, optionalString, type JsonObject } from '../json.js';
import type { Agent2xView, AgentView } from '../objects/agent-view.js';

export { isLine2Agent, KAGENT_V2_GROUP } from '../objects/agent-view.js';
export const ICON_URL_ANNOTATION = 'ui.giantswarm.io/icon-url';
/** Where the portal's display name of an agent is kept, on the Agent of either line and on the release. */
export const DISPLAY_NAME_ANNOTATION = 'ui.giantswarm.io/display-name';

/** The Agent's status as ObjectStatus: its conditions, generations and revisions. */
export function objectStatus(agent: AgentView | undefined): ObjectStatus {
  if (!agent) return { exists: false, ready: null, accepted: null };
  const { conditions } = agent;
  // A 0.x Agent has no Harness, revisions or warnings: its Ready condition alone speaks.
  const line2: Partial<Agent2xView> = agent.line === '2.x' ? agent : {};
  const { harness, desiredRevision: desired, latestSuccessfulRevision: latest, warnings = [] } = line2;
  const readyCondition = conditionStatus(conditions, 'Ready');
  const ready = readyCondition === null ? null : readyCondition && desired === latest;
  const out: ObjectStatus = {
    exists: true, ready, accepted: conditionStatus(conditions, 'Accepted'),
    resolvedRefs: conditionStatus(conditions, 'ResolvedRefs'), compatible: conditionStatus(conditions, 'Compatible'),
  };
  const generation = agent.meta.generation;
  const observed = agent.observedGeneration;
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
function templateSkills(skills: readonly JsonObject[]): JsonObject[] {
  return skills.map((s) => {
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
export function agentFromLine2Cr(cr: Agent2xView): Agent {
  const status = objectStatus(cr);
  const { annotations } = cr.meta;
  return {
    name: cr.meta.name,
    namespace: cr.meta.namespace ?? '',
    exists: true,
    chartLine: '2.x',
    displayName: optionalString(annotations[DISPLAY_NAME_ANNOTATION]),
    description: cr.description,
    modelConfig: cr.modelConfig,
    iconUrl: optionalString(annotations[ICON_URL_ANNOTATION]),
    systemMessage: cr.systemPrompt,
    harness: status.harness,
    skills: agentSkills(templateSkills(cr.skills)),
    plugins: templatePlugins(cr.plugins),
    ready: status.ready,
    accepted: status.accepted,
    conditions: status.conditions,
    status,
    managed: 'none',
  };
}

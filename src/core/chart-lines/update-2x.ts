/**
 * The update merge of chart 2.x: core/writes/update-merge.ts's rules (an absent field stays, a blank string removes its
 * key, lists and maps replace the whole value) over 2.x values. A blank `harness` goes back to the installation's,
 * since the Agent must name one; `plugins: []` clears them; `requireApproval: false` removes it; the read
 * credential follows the git sources (added with the first when the installation has one, dropped with the last,
 * an unused one being noise). Keys the request does not speak about (`extraTools`, `muster.timeout`) carry over.
 */
import { isSet, type Values } from '../writes/compose.js';
import { isJsonObject, stringField } from '../json.js';
import type { AgentUpdate } from '../types.js';
import {
  hasGitSource, LINE2_AGENT_FIELDS, pluginsList, skillsList, type Line2Settings, type Line2Spec,
} from './values-2x.js';

function setOrDelete(values: Values, key: string, value: unknown): void {
  if (value === undefined) delete values[key];
  else values[key] = value;
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length > 0 ? list : undefined;
}

function nonEmptyMap(map: Record<string, string>): Record<string, string> | undefined {
  return Object.keys(map).length > 0 ? { ...map } : undefined;
}

function applyAgentFields(agent: Values, update: AgentUpdate & Line2Spec, settings: Line2Settings): void {
  for (const field of LINE2_AGENT_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (isSet(value)) agent[field] = value;
    else delete agent[field];
  }
  if (update.harness !== undefined) agent.harness = isSet(update.harness) ? update.harness : settings.harnessName;
  if (update.egress !== undefined) {
    if (update.egress.length > 0) agent.egress = [...update.egress];
    else delete agent.egress;
  } else if (!isSet(stringField(agent.harness))) agent.harness = settings.harnessName;
}

function applyMuster(after: Values, update: AgentUpdate & Line2Spec): void {
  if (update.requireApproval === undefined) return;
  const muster = isJsonObject(after.muster) ? after.muster : {};
  if (update.requireApproval) muster.requireApproval = true;
  else delete muster.requireApproval;
  setOrDelete(after, 'muster', Object.keys(muster).length > 0 ? muster : undefined);
}

function applyCredential(after: Values, update: AgentUpdate & Line2Spec, settings: Line2Settings): void {
  const own = update.gitAuthSecretName ?? update.skills?.gitAuthSecretName;
  if (own !== undefined) setOrDelete(after, 'skillsGitAuthSecretRef', isSet(own) ? { name: own } : undefined);
  const sourcesChanged = update.skills !== undefined || update.plugins !== undefined;
  if (!hasGitSource(after)) {
    if (sourcesChanged) delete after.skillsGitAuthSecretRef;
    return;
  }
  const installation = settings.target ? undefined : settings.skillsGitAuthSecretName;
  if (after.skillsGitAuthSecretRef === undefined && own === undefined && isSet(installation)) {
    after.skillsGitAuthSecretRef = { name: installation };
  }
}

/** The 2.x values after applying `update` to `values`; `values` itself is left untouched. */
export function applyUpdate2x(values: Values, update: AgentUpdate & Line2Spec, settings: Line2Settings): Values {
  const after = structuredClone(values);
  const agent = isJsonObject(after.agent) ? after.agent : {};
  if (agent.name === undefined) agent.name = update.name;
  applyAgentFields(agent, update, settings);
  after.agent = agent;
  if (update.modelConfig !== undefined) {
    const modelConfig = isJsonObject(after.modelConfig) ? after.modelConfig : {};
    modelConfig.name = update.modelConfig;
    after.modelConfig = modelConfig;
  }
  if (update.skills !== undefined) setOrDelete(after, 'skills', nonEmpty(skillsList(update.skills)));
  if (update.plugins !== undefined) setOrDelete(after, 'plugins', nonEmpty(pluginsList(update.plugins)));
  applyCredential(after, update, settings);
  applyMuster(after, update);
  if (update.toolset !== undefined) after.toolset = [...update.toolset];
  if (update.labels !== undefined) setOrDelete(after, 'labels', nonEmptyMap(update.labels));
  if (update.annotations !== undefined) setOrDelete(after, 'annotations', nonEmptyMap(update.annotations));
  return after;
}

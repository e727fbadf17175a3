/**
 * The update merge: how an update_agent request changes a release's values. An absent field stays; a
 * blank string removes its key (the chart default applies again); `skills`, `toolset`, `labels` and
 * `annotations` replace the whole block (an empty skills block or `{}` removes it); `modelConfig` sets
 * `modelConfig.name`; `agent.name` is pinned when it never was. Keys the request does not speak about
 * (`replicas`, `muster.*`, set by hand or GitOps) carry over untouched. Pure: the input is never mutated.
 */
import { AGENT_STRING_FIELDS, isSet, skillsValues, type Values } from './compose.js';
import { isJsonObject } from '../json.js';
import type { AgentUpdate } from '../types.js';

/** The values after applying `update` to `values`; `values` itself is left untouched. */
export function applyUpdate(values: Values, update: AgentUpdate): Values {
  const after = structuredClone(values);
  const agent = isJsonObject(after.agent) ? after.agent : {};
  if (agent.name === undefined) agent.name = update.name;
  for (const field of AGENT_STRING_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (isSet(value)) agent[field] = value;
    else delete agent[field];
  }
  after.agent = agent;

  if (update.modelConfig !== undefined) {
    const modelConfig = isJsonObject(after.modelConfig) ? after.modelConfig : {};
    modelConfig.name = update.modelConfig;
    after.modelConfig = modelConfig;
  }
  if (update.skills !== undefined) setOrDelete(after, 'skills', skillsValues(update.skills));
  if (update.toolset !== undefined) after.toolset = [...update.toolset];
  if (update.labels !== undefined) setOrDelete(after, 'labels', nonEmptyMap(update.labels));
  if (update.annotations !== undefined) {
    setOrDelete(after, 'annotations', nonEmptyMap(update.annotations));
  }
  return after;
}

function setOrDelete(values: Values, key: string, value: unknown): void {
  if (value === undefined) delete values[key];
  else values[key] = value;
}

function nonEmptyMap(map: Record<string, string>): Record<string, string> | undefined {
  return Object.keys(map).length > 0 ? { ...map } : undefined;
}

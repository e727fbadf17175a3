/**
 * The update merge: how an update_agent request changes a release's existing values.
 *
 * Rules (the toolset takes the place of `muster.toolNames`):
 * - an absent field stays as it is;
 * - a string field of "" or only whitespace removes its key, so the chart default
 *   applies again;
 * - `modelConfig` sets `modelConfig.name` (the service refuses a blank one first);
 * - `skills` replaces the whole block, shaped as on create (git skill names derived);
 *   a block with no refs and no gitRefs removes `skills`;
 * - `toolset` replaces the whole list (the toolset grammar refuses `[]` elsewhere);
 * - `labels` and `annotations` replace the whole map, and `{}` removes it;
 * - `agent.name` is filled in when the release never pinned it.
 *
 * Keys the request does not speak about (chart keys set by hand or by GitOps, such as
 * `replicas` or `muster.*`) are carried over untouched. `toolNames` is refused before
 * a merge (core/toolset.ts) and never written. Pure: the input is never mutated.
 */
import { AGENT_STRING_FIELDS, isSet, skillsValues, type Values } from './compose.js';
import { isPlainObject } from './diff.js';
import type { AgentUpdate } from './types.js';

/** The values after applying `update` to `values`; `values` itself is left untouched. */
export function applyUpdate(values: Values, update: AgentUpdate): Values {
  const after = structuredClone(values);
  const agent = isPlainObject(after.agent) ? after.agent : {};
  if (agent.name === undefined) agent.name = update.name;
  for (const field of AGENT_STRING_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    if (isSet(value)) agent[field] = value;
    else delete agent[field];
  }
  after.agent = agent;

  if (update.modelConfig !== undefined) {
    const modelConfig = isPlainObject(after.modelConfig) ? after.modelConfig : {};
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

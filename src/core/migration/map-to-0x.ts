/**
 * Chart 2.x values → chart 0.x values: the way back for a namespace migrated too early. Only what 0.x can express
 * moves back: the Harness `kagent` is 0.x's default runtime (no `runtime` is written); skills return to the
 * `{gitRefs, refs}` block with the same pins; identity, model, toolset, labels and annotations stay exactly. An
 * agent using what only 2.x has (another Harness, plugins, approval, egress, muster's tool filter or discovery,
 * context compaction, extraAgentSpec or extraTools in 2.x's shape) is refused naming the feature, since writing it
 * without would silently change what the agent can do. Pure.
 */
import type { Values } from '../writes/compose.js';
import { blockOfSkillsList } from '../skills/skill-reads.js';
import { DEFAULT_HARNESS } from './map-to-2x.js';
import { mapped, present, type Mapped } from './mapped.js';
import { extraToolsRefusal } from './template-fields.js';
import { asList, asObject, optionalString } from '../json.js';

const ONLY_2X = 'which chart 0.x cannot express; remove it with update_agent first, or keep the namespace on 2.x';

function agentOf(agent: Values, refusals: string[], notes: string[]): Values {
  const { harness, egress, ...rest } = agent;
  const name = optionalString(harness);
  if (name !== undefined && name !== DEFAULT_HARNESS) {
    refusals.push(`the agent runs on Harness ${name}, ${ONLY_2X} (0.x runs agents on kagent's go runtime only)`);
  } else if (name) notes.push(`Harness ${name} → runtime unset (0.x's default, go)`);
  if (present(egress)) {
    refusals.push(`agent.egress (${asList(egress).length} origins) is a 2.x feature, ${ONLY_2X}`);
  }
  return rest;
}

function musterOf(muster: Values, refusals: string[], notes: string[]): Values | undefined {
  const out: Values = {};
  for (const [key, value] of Object.entries(muster)) {
    if (key === 'enabled') out.enabled = value;
    else if (key === 'url' || key === 'timeout') notes.push(`muster.${key} dropped: 0.x reaches muster by serverRef`);
    else if (key === 'requireApproval' && value !== true) continue;
    else if (present(value) || value === true) refusals.push(`muster.${key} is a 2.x feature, ${ONLY_2X}`);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The 0.x values of a release's 2.x values, or the refusals that keep it on 2.x. */
export function mapTo0x(values: Values): Mapped {
  const notes: string[] = [];
  const refusals: string[] = [];
  const out: Values = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'agent') out.agent = agentOf(asObject(value), refusals, notes);
    else if (key === 'skills') {
      const block = Array.isArray(value) ? blockOfSkillsList(value) : asObject(value);
      if (present(block)) out.skills = block;
    } else if (key === 'skillsGitAuthSecretRef') {
      continue;
    } else if (key === 'muster') {
      const muster = musterOf(asObject(value), refusals, notes);
      if (muster) out.muster = muster;
    } else if (key === 'plugins' || key === 'context' || key === 'extraAgentSpec') {
      if (present(value)) refusals.push(`${key} is a 2.x feature here, ${ONLY_2X}`);
    } else if (key === 'extraTools') {
      const refusal = extraToolsRefusal(value, '2.x');
      if (refusal) refusals.push(refusal);
    } else out[key] = structuredClone(value);
  }
  // The secret may come before the skills in key order: attach it to the block they became.
  const secret = optionalString(asObject(values.skillsGitAuthSecretRef).name);
  if (secret && out.skills && asObject(out.skills).gitRefs) {
    out.skills = { ...asObject(out.skills), gitAuthSecretRef: { name: secret } };
  } else if (secret) notes.push('skillsGitAuthSecretRef dropped: the agent has no git skill to read with it');
  return mapped(out, notes, refusals);
}

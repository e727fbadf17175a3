/**
 * `extraAgentSpec` across the lines. On 0.x it is deep-merged over the rendered `kagent.dev/v1alpha2` Agent spec;
 * on 2.x over the `api.kagent.dev/v1alpha3` Agent, whose agent definition lives in `spec.template`. Only keys that
 * are fields of that template (upstream `kagent.dev_agenttemplates.yaml`, v1alpha3, and the chart's documentation)
 * mean the same thing on both sides; any other key would land on a field 2.x does not have (the schema accepts any
 * object there, so nothing else would catch it), so it is refused by name instead of carried. Pure.
 */
import { brief, present } from './mapped.js';
import { asObject } from '../json.js';

/** The fields of the v1alpha3 Agent's `spec.template` an `extraAgentSpec` key may name. */
export const TEMPLATE_FIELDS: readonly string[] = [
  'description', 'modelConfig', 'plugins', 'promptTemplate', 'skills', 'systemPrompt', 'systemPromptFrom', 'tools',
];

/** The keys of an `extraAgentSpec` that are not template fields, sorted. */
export function nonTemplateKeys(extra: unknown): string[] {
  return Object.keys(asObject(extra)).filter((k) => !TEMPLATE_FIELDS.includes(k)).sort();
}

/** The refusal of a 0.x `extraAgentSpec` 2.x cannot carry, or undefined. */
export function extraAgentSpecRefusal(extra: unknown): string | undefined {
  if (!present(extra)) return undefined;
  const keys = nonTemplateKeys(extra);
  if (keys.length === 0) return undefined;
  return `extraAgentSpec names ${keys.join(', ')}, which ${keys.length === 1 ? 'is not a field' : 'are not fields'} ` +
    `of the 2.x Agent's spec.template (${TEMPLATE_FIELDS.join(', ')}); move ${keys.length === 1 ? 'it' : 'them'} ` +
    'into the agent\'s own arguments or drop ' + (keys.length === 1 ? 'it' : 'them') + ', then run migrate again';
}

/** The refusal of `extraTools`, whose entries bind tools in another shape on each line, naming them. */
export function extraToolsRefusal(extraTools: unknown, line: string): string | undefined {
  if (!present(extraTools)) return undefined;
  const entries = Array.isArray(extraTools) ? extraTools : [extraTools];
  return `extraTools (${entries.map(brief).join(', ')}) binds tools in chart ${line}'s shape, which the other line ` +
    'renders differently; give the agent its tools through the toolset, drop extraTools, then run migrate again';
}

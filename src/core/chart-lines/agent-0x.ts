/**
 * How an agent of chart 0.x is read back from its `kagent.dev/v1alpha2` Agent: identity from the annotations
 * and the declarative spec (description, model, runtime, prompt, skills), the toolset from the muster tool
 * entry's `X-Muster-Toolset` header, and Ready/Accepted from its conditions. `agentOfLine` is the one place
 * an Agent view's chart line picks its reader (agent-2x.ts reads the other). Pure functions over plain JSON.
 */
import { conditionStatus } from '../status/conditions.js';
import { agentSkills } from '../skills/skill-reads.js';
import { parseToolsetHeader, TOOLSET_HEADER } from '../toolset/toolset-grammar.js';
import type { Agent } from '../types.js';
import { asObject, optionalString, stringList, type JsonObject } from '../json.js';
import type { Agent0xView, AgentView } from '../objects/agent-view.js';
import { agentFromLine2Cr, DISPLAY_NAME_ANNOTATION } from './agent-2x.js';

function musterBinding(tools: readonly JsonObject[]): JsonObject | undefined {
  return tools.find((t) => t.type === 'McpServer' || t.mcpServer !== undefined);
}

/** The toolset the chart rendered on the Agent's muster tool entry (0.6+ charts). */
function crToolset(binding: JsonObject | undefined): Pick<Agent, 'toolset' | 'implicitFullAccess'> {
  if (!binding) return {};
  const header = (Array.isArray(binding.headersFrom) ? binding.headersFrom : [])
    .map(asObject)
    .find((h) => h.name === TOOLSET_HEADER);
  const selectors = header && typeof header.value === 'string' ? parseToolsetHeader(header.value) : [];
  return selectors.length > 0 ? { toolset: selectors } : { implicitFullAccess: true };
}

/** The identity fields of a chart 0.x Agent. */
export function agentFromLine0Cr(cr: Agent0xView): Agent {
  const binding = musterBinding(cr.tools);
  const { conditions } = cr;
  return {
    name: cr.meta.name,
    namespace: cr.meta.namespace ?? '',
    exists: true,
    displayName: optionalString(cr.meta.annotations[DISPLAY_NAME_ANNOTATION]),
    description: cr.description,
    modelConfig: cr.modelConfig,
    runtime: cr.runtime,
    iconUrl: cr.iconUrl,
    systemMessage: cr.systemMessage,
    skills: agentSkills(cr.skills),
    toolNames: stringList(asObject(binding?.mcpServer).toolNames),
    ...crToolset(binding),
    ready: conditionStatus(conditions, 'Ready'),
    accepted: conditionStatus(conditions, 'Accepted'),
    conditions: conditions.length > 0 ? conditions : undefined,
    managed: 'none',
  };
}

/** The identity fields of an agent read from its Agent, by the chart line the Agent's group says. */
export function agentOfLine(cr: AgentView): Agent {
  return cr.line === '2.x' ? agentFromLine2Cr(cr) : agentFromLine0Cr(cr);
}

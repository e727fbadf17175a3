/**
 * The tool bindings a claude Harness agent may not carry beside its muster toolset. `muster.requireApproval`
 * asks a person to approve each call, which has nothing to guard when every muster tool is read-only (and
 * approving a call is muster's); `extraTools` and `extraAgentSpec.tools` bind tools that are not resolved
 * through muster, so nobody has checked them. The service never writes the last two itself: they reach a
 * claude Harness agent when a release that carries them changes its Harness to claude, so the guard reads
 * them from the values the write would leave on the release.
 */

import { asObject } from '../json.js';

type Values = Readonly<Record<string, unknown>>;

/** The refusals for the bindings `values` carry, in the original's words (empty when there are none). */
export function bindingViolations(values: Values): string[] {
  const out: string[] = [];
  if (asObject(values.muster).requireApproval === true) {
    out.push('muster.requireApproval: a claude Harness agent takes no requireApproval binding: its muster tools are ' +
      "read-only, and approving a call is muster's");
  }
  const extra = values.extraTools;
  if (Array.isArray(extra) && extra.length > 0) {
    out.push('extraTools: a claude Harness agent reaches tools through muster only, where its toolset is checked; ' +
      `drop the ${extra.length} extra binding(s)`);
  }
  const agentSpec = asObject(values.extraAgentSpec);
  if (Object.hasOwn(agentSpec, 'tools') && agentSpec.tools !== null && agentSpec.tools !== undefined) {
    out.push('extraAgentSpec.tools: a claude Harness agent reaches tools through muster only, where its toolset is ' +
      'checked');
  }
  return out;
}

/**
 * The request-only problems of an update, in check order, as violations (texts without the
 * `invalid request: ` prefix): update_agent refuses with the first, validate_agent collects them all, and
 * rollback_agent judges a revision's spec by them, so all three refuse the same change the same way.
 */
import { metadataMapsViolations } from '../labels.js';
import { nameViolation } from '../names.js';
import { skillsViolations } from '../skills/skill-input.js';
import { toolsetViolations } from '../toolset/toolset-grammar.js';
import type { AgentUpdate } from '../types.js';
import { resourceVersionViolation, versionViolation } from './precondition-rules.js';

export const MODEL_CONFIG_CLEARED =
  'modelConfig cannot be cleared: name an existing ModelConfig of the namespace (list_model_configs)';

/** The request-only problems of an update (no cluster needed), in check order. */
export function updateViolations(update: AgentUpdate): string[] {
  const problems: string[] = [];
  const badName = nameViolation(update.name);
  if (badName) problems.push(badName);
  problems.push(...toolsetViolations(update.toolset, { required: false }));
  if (update.skills !== undefined) problems.push(...skillsViolations(update.skills));
  problems.push(...metadataMapsViolations(update));
  if (update.modelConfig !== undefined && update.modelConfig.trim() === '') problems.push(MODEL_CONFIG_CLEARED);
  const versionProblem = resourceVersionViolation(update.resourceVersion) ?? versionViolation(update.version);
  if (versionProblem) problems.push(versionProblem);
  return problems;
}

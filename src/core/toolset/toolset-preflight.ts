/**
 * The toolset preflight: what the grammar cannot tell, checked before an agent is broken by it. muster
 * refuses every meta-tool call of an agent naming a preset it lacks, so with `--toolset-presets` (the
 * installation's known presets) an unknown one is refused in muster's words, and without it accepted
 * with a note; other legal but unlikely shapes are notes too (docs/safe-change.md "Toolset preflight").
 */
import { invalid } from '../errors.js';
import { SHIPPED_PRESETS } from './toolset-grammar.js';

/** The presets built into muster, which no configuration can redefine, in muster's message order. */
export const BUILT_IN_PRESETS: readonly string[] = ['read-only', 'none', 'full'];

/** What the installation says about its presets. */
export interface PresetPolicy {
  /** `--toolset-presets`: the preset names beyond the shipped five; undefined when not set. */
  readonly configured?: readonly string[];
}

/**
 * The known presets in muster's message order: the built-ins, then every other preset
 * (the two platform presets and the configured ones) sorted by name.
 */
export function knownPresets(policy: PresetPolicy): string[] {
  const others = new Set([...SHIPPED_PRESETS, ...(policy.configured ?? [])]);
  for (const builtIn of BUILT_IN_PRESETS) others.delete(builtIn);
  return [...BUILT_IN_PRESETS, ...[...others].sort()];
}

const presetName = (selector: string): string | undefined =>
  selector.startsWith('preset:') ? selector.slice('preset:'.length) : undefined;

/**
 * muster's refusal of the first unknown preset when the installation's presets are known
 * (`toolset [preset:foo] names unknown preset "foo"; known presets: read-only, none, full, …`),
 * else undefined. The selectors are grammatical already.
 */
export function unknownPresetViolation(
  selectors: readonly string[] | undefined, policy: PresetPolicy,
): string | undefined {
  if (!selectors || policy.configured === undefined) return undefined;
  const known = new Set(knownPresets(policy));
  const unknown = selectors.map(presetName).find((name) => name !== undefined && !known.has(name));
  if (unknown === undefined) return undefined;
  return `toolset [${selectors.join(',')}] names unknown preset ${JSON.stringify(unknown)}; known presets: ` +
    `${knownPresets(policy).join(', ')}`;
}

/** Throws `invalid_request` with muster's text for an unknown preset (see unknownPresetViolation). */
export function validatePresets(selectors: readonly string[] | undefined, policy: PresetPolicy): void {
  const violation = unknownPresetViolation(selectors, policy);
  if (violation !== undefined) throw invalid(violation);
}

/**
 * The notes on a grammatical toolset, in selector order: a preset outside the shipped five
 * (only when the installation's presets are not configured), a selector given twice,
 * preset:none or preset:full combined with other selectors. Empty when there is nothing to say.
 */
export function toolsetNotes(selectors: readonly string[] | undefined, policy: PresetPolicy): string[] {
  if (!selectors || selectors.length === 0) return [];
  const notes: string[] = [];
  const known = new Set(knownPresets(policy));
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const selector of selectors) {
    const name = presetName(selector);
    if (name !== undefined && policy.configured === undefined && !known.has(name) && !reported.has(selector)) {
      notes.push(
        `${selector} is not one of the presets every installation has (${knownPresets(policy).join(', ')}); muster ` +
        `refuses every tool call of this agent unless the gateway defines a preset "${name}" (run agent-manager with ` +
        `--toolset-presets to check)`,
      );
      reported.add(selector);
    }
    if (seen.has(selector) && !reported.has(`twice:${selector}`)) {
      notes.push(`${selector} is given more than once; a toolset is a union, so the repeats add nothing`);
      reported.add(`twice:${selector}`);
    }
    seen.add(selector);
  }
  const others = [...seen].filter((s) => s !== 'preset:none' && s !== 'preset:full');
  if (seen.has('preset:none') && seen.size > 1) {
    notes.push(
      'preset:none selects nothing, so beside other selectors it changes nothing: the agent gets what the others ' +
      'select ' +
      '(use ["preset:none"] alone for an agent without tools)',
    );
  }
  if (seen.has('preset:full') && (others.length > 0 || seen.has('preset:none'))) {
    notes.push('preset:full already selects every tool the gateway exposes, so the other selectors add nothing');
  }
  return notes;
}

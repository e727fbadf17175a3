/**
 * Whether one toolset reaches more of the gateway's tools than another, judged from the selectors alone
 * (muster resolves them; this service never does). What is known for certain: no toolset (implicit full
 * access) and `preset:full` reach every tool, `preset:none` reaches none. Any other selector the current
 * toolset does not hold may reach a tool it cannot (`tool:x` may be inside `preset:read-only`, or not),
 * so the comparison says "may" there and never claims less than could be true: a rollback that widens
 * access must say so (rollback_agent's note), a narrowing or an equal toolset says nothing.
 */

/** The selector that reaches every tool the gateway exposes. */
const FULL = 'preset:full';
/** The selector that reaches none. */
const NONE = 'preset:none';

/** How `next` reaches past `current`: for certain, or maybe, with the selectors `current` lacks. */
export interface ToolsetWidening {
  /** True when `next` reaches a tool `current` cannot whatever the presets hold; false when it may. */
  certain: boolean;
  /** The selectors of `next` that `current` does not hold (empty when `next` is no toolset at all). */
  added: string[];
}

/** No toolset value (absent or null): a release from before toolsets, implicit full access. */
function isUnset(toolset: unknown): boolean {
  return toolset === undefined || toolset === null;
}

/** The selectors of a toolset value; a value that is not a list holds none the gateway would honour. */
function selectorsOf(toolset: unknown): string[] {
  return Array.isArray(toolset) ? toolset.filter((s): s is string => typeof s === 'string') : [];
}

function reachesEverything(toolset: unknown): boolean {
  return isUnset(toolset) || selectorsOf(toolset).includes(FULL);
}

/**
 * How the toolset value `next` reaches more than `current` (each a release's `toolset` value: a list of
 * selectors, or absent for implicit full access), or undefined when it reaches nothing `current` cannot.
 */
export function toolsetWidening(current: unknown, next: unknown): ToolsetWidening | undefined {
  if (reachesEverything(current)) return undefined;
  const held = new Set(selectorsOf(current).filter((s) => s !== NONE));
  const added = [...new Set(selectorsOf(next))].filter((s) => s !== NONE && !held.has(s));
  if (reachesEverything(next)) return { certain: true, added };
  if (added.length === 0) return undefined;
  // From nothing at all, any selector is more; otherwise it depends on what the presets select.
  return { certain: held.size === 0, added };
}

/** A toolset value as a note names it: its selectors as JSON, or what no toolset means. */
export function toolsetText(toolset: unknown): string {
  if (isUnset(toolset)) return 'no toolset (implicit full access to every tool the gateway exposes)';
  return JSON.stringify(selectorsOf(toolset));
}

/**
 * The note of a rollback to `revision` whose toolset (`next`) reaches more than the current one, naming
 * both; undefined when it does not. It holds for the dry run and a proposal as for the write.
 */
export function wideningRollbackNote(revision: number, current: unknown, next: unknown): string | undefined {
  const widening = toolsetWidening(current, next);
  if (!widening) return undefined;
  const change = `from ${toolsetText(current)} to ${toolsetText(next)}`;
  const everything = isUnset(next) || !reachesEverything(next) ? '' : ', every tool the gateway exposes';
  if (widening.certain) {
    return `revision ${revision}'s toolset reaches more than the current one: ${change}${everything}`;
  }
  return `revision ${revision}'s toolset may reach more than the current one: ${change} (` +
    `${widening.added.join(', ')} not in the current toolset)`;
}

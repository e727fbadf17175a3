/**
 * One agent's change as a person reviews it: the unified diff of its values as YAML (keys sorted, so the diff shows
 * what changed and not how it was ordered), the same text `git diff` would show for the values file. Pure.
 */
import { createTwoFilesPatch } from 'diff';
import type { Values } from '../writes/compose.js';
import { toYaml } from '../yaml.js';

/** The unified diff of `before` → `after` for agent `name`; empty when the values are the same. */
export function valuesDiff(name: string, before: Values, after: Values): string {
  const a = toYaml(before);
  const b = toYaml(after);
  if (a === b) return '';
  return createTwoFilesPatch(`${name}/values (before)`, `${name}/values (after)`, a, b, undefined, undefined,
    { context: 3 });
}

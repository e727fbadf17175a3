/**
 * What mapping one release's values to the other chart line answers: the new values, or the refusals that keep the
 * release (and so its namespace) where it is, with notes for everything the mapping changed on the way (a key
 * dropped, a runtime turned into a Harness). A refusal names what to change first; nothing is dropped silently, so
 * a person reading the report sees every difference the new chart will render. Pure.
 */
import type { Values } from '../writes/compose.js';
import { isJsonObject } from '../json.js';

/** One release's values on the target line, or why they cannot be written there. */
export interface Mapped {
  /** The target line's values; absent when there is a refusal. */
  values?: Values;
  /** What the mapping changed that a person should know (dropped keys, the Harness chosen). */
  notes: string[];
  /** Why the release cannot move; non-empty means no values. */
  refusals: string[];
}

/** True when a values key holds something (an empty map or list counts as absent). */
export function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isJsonObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** The answer of a mapping: the values when nothing refused them. */
export function mapped(values: Values, notes: string[], refusals: string[]): Mapped {
  return refusals.length > 0 ? { notes, refusals } : { values, notes, refusals };
}

/** A short, stable text of a value for a refusal (`{"name":"x"}`), cut at 80 characters. */
export function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Kubernetes conditions: reading them from raw objects and asking them questions. The
 * polarity rule is in one place: `True` is true, `False` is false, and an absent condition
 * or one with status `Unknown` is not known (null), which the verdict treats as "not yet".
 */
import { formatKubeTime } from '../kube-time.js';
import type { Condition } from '../types.js';
import { asObject, stringOr } from '../json.js';

/** The reason findCondition gives a type held twice with different statuses. */
export const CONTRADICTORY = 'Contradictory';

/**
 * The condition of `type`, or undefined. Conditions are a map by type (Kubernetes API conventions), but
 * the Flux and kagent CRDs do not make the API server hold that: when one type appears twice with
 * different statuses, neither speaks for the object, and the answer is that type as Unknown (which no
 * verdict reads as ready or failed) with the reason CONTRADICTORY, naming the statuses.
 */
export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  const first = conditions?.find((c) => c.type === type);
  if (!first || !conditions!.some((c) => c !== first && c.type === type && c.status !== first.status)) return first;
  const statuses = conditions!.filter((c) => c.type === type).map((c) => c.status).join(', ');
  return {
    type, status: 'Unknown', reason: CONTRADICTORY,
    message: `status.conditions holds ${type} more than once, with the statuses ${statuses}`,
  };
}

/** A condition's status as a boolean: True → true, False → false, absent or Unknown → null. */
export function conditionStatus(conditions: readonly Condition[] | undefined, type: string): boolean | null {
  const status = findCondition(conditions, type)?.status;
  if (status === 'True') return true;
  if (status === 'False') return false;
  return null;
}

/**
 * A condition in one phrase for summaries: `<reason>: <message>`, the reason alone when
 * there is no message, the message alone when there is no reason, `no reason reported`
 * when the condition carries neither, and `no condition reported` when it is absent.
 */
export function conditionText(c: Condition | undefined): string {
  if (c === undefined) return 'no condition reported';
  const parts = [c.reason, c.message].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length > 0 ? parts.join(': ') : 'no reason reported';
}

/**
 * The conditions of a raw `status.conditions` list (plain JSON or client-node objects),
 * in their order. Entries that are not objects are skipped, empty fields are left out, and
 * `lastTransitionTime` is rendered to the second in UTC (kept as written when it is not a time). An absent list
 * gives [].
 */
export function parseConditions(raw: unknown): Condition[] {
  if (!Array.isArray(raw)) return [];
  const out: Condition[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const m = asObject(item);
    const c: Condition = { type: stringOr(m.type, ''), status: stringOr(m.status, '') };
    if (stringOr(m.reason, '')) c.reason = stringOr(m.reason, '');
    if (stringOr(m.message, '')) c.message = stringOr(m.message, '');
    // A time that does not parse is kept as written rather than lost.
    const at = formatKubeTime(m.lastTransitionTime) ?? (stringOr(m.lastTransitionTime, '') || undefined);
    if (at !== undefined) c.lastTransitionTime = at;
    if (typeof m.observedGeneration === 'number' && Number.isInteger(m.observedGeneration)) {
      c.observedGeneration = m.observedGeneration;
    }
    out.push(c);
  }
  return out;
}

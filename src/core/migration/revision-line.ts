/**
 * Which chart line a revision's values were written for, and why a rollback across lines is refused: a 0.x
 * revision's values on a release that now renders 2.x (or the other way round) would be judged by the wrong schema
 * and render the wrong objects. The way back across lines is the migration's reverse run, which maps every agent of
 * the namespace or names those it cannot. Pure.
 */
import type { ChartLine } from '../chart-lines/major-line.js';
import type { Values } from '../writes/compose.js';
import { asObject } from '../json.js';

/** The line values were written for: 2.x names a Harness (always written there) or holds the skills list. */
export function valuesLine(values: Values): ChartLine {
  return Array.isArray(values.skills) || typeof asObject(values.agent).harness === 'string' ? '2.x' : '0.x';
}

/** The 409 text of a rollback to a revision of the other line, or undefined when the lines agree. */
export function crossLineRollback(
  where: string, revision: number, values: Values, line: ChartLine,
): string | undefined {
  const recorded = valuesLine(values);
  if (recorded === line) return undefined;
  const namespace = where.split('/')[0] ?? '';
  return `revision ${revision} of agent ${where} was recorded on chart ${recorded}, and the namespace's chart line ` +
    `moved: the agent now renders chart ${line}, which that revision's values do not fit. To go back to chart ` +
    `${recorded}, run agent-manager migrate --phase expand --agent-chart-semver ${recorded} --namespaces ` +
    `${namespace} (it moves every agent of the namespace back, or names those that cannot move)`;
}

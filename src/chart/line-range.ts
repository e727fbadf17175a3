/**
 * The chart line a `ref.semver` range follows. A range must admit one major only: an OCIRepository whose range
 * spans two majors would move its releases from one line to the other on the next chart release, rendering one
 * line's values with the other line's chart, which fails every release at once. The check probes the range with
 * the chart's own semver dialect (semver-constraint.ts, as source-controller reads it) at the edges of each major
 * and at the versions the range names, since no closed form exists for Masterminds' ranges. Pure.
 */
import { lineOfMajor, type ChartLine } from '../core/chart-lines/major-line.js';
import { parseSemverConstraint } from './semver-constraint.js';

/** How many majors are probed: chart majors beyond this are not expected in a range's reach. */
const MAX_MAJOR = 50;

function probes(major: number, range: string): string[] {
  const named = [...range.matchAll(/(\d+)\.(\d+)\.(\d+)/g)]
    .filter((m) => Number(m[1]) === major)
    .flatMap((m) => [`${m[1]}.${m[2]}.${m[3]}`, `${m[1]}.${m[2]}.${Number(m[3]) + 1}`]);
  return [`${major}.0.0`, `${major}.0.1`, `${major}.1.0`, `${major}.5.2`, `${major}.99.99`,
    `${major}.999999.999999`, ...named];
}

/** The majors a range admits, probed from 0 to MAX_MAJOR. Throws when the range does not parse. */
export function rangeMajors(range: string): number[] {
  const constraint = parseSemverConstraint(range);
  const majors: number[] = [];
  for (let major = 0; major <= MAX_MAJOR; major++) {
    if (probes(major, range).some((v) => constraint.satisfies(v))) majors.push(major);
  }
  return majors;
}

/** The line of a range that admits exactly one served major, or why it cannot be a namespace's range. */
export function rangeLine(range: string): { line: ChartLine } | { error: string } {
  let majors: number[];
  try {
    majors = rangeMajors(range);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  if (majors.length === 0) return { error: `semver range "${range}" admits no chart version` };
  if (majors.length > 1) {
    return { error: `semver range "${range}" admits chart majors ${majors.slice(0, 4).join(', ')}` +
      `${majors.length > 4 ? ', …' : ''}; a range must follow one chart line (0.x or 2.x), since a new major would ` +
      'render every agent\'s values with the other line\'s chart' };
  }
  const line = lineOfMajor(majors[0]!);
  if (!line) {
    return { error: `semver range "${range}" follows chart ${majors[0]}.x, which agent-manager does not serve; ` +
      'use 0.x or 2.x' };
  }
  return { line };
}

/** The line of a range, or undefined when it has none (the caller falls back to another fact). */
export function lineOfRange(range: string): ChartLine | undefined {
  const found = rangeLine(range);
  return 'line' in found ? found.line : undefined;
}

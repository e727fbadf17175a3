/**
 * The agent chart's lines. A line is a major version of the chart with its own values contract and its own
 * rendered objects: 0.x renders a `kagent.dev/v1alpha2` Agent with pods, 2.x an `api.kagent.dev/v1alpha3`
 * Agent on a Harness. 1.x (the AgentTemplate line) and any other major are not served: its values and objects
 * are neither line's, and writing them with either line's rules would break the release.
 * An agent's line is the major of the chart version its source resolved, so one namespace can hold both while
 * it migrates (docs/chart-lines.md). Pure: versions and ranges in, a line or a reason out.
 */

/** The lines agent-manager composes and reads. */
export type ChartLine = '0.x' | '2.x';

export const CHART_LINES: readonly ChartLine[] = ['0.x', '2.x'];

/** What each line renders, in the words the refusals use. */
export const LINE_RENDERS: Record<ChartLine, string> = {
  '0.x': 'a kagent.dev/v1alpha2 Agent with its pods',
  '2.x': 'an api.kagent.dev/v1alpha3 Agent on a Harness',
};

/** The line of a chart major, or undefined for a major agent-manager does not serve. */
export function lineOfMajor(major: number): ChartLine | undefined {
  if (major === 0) return '0.x';
  if (major === 2) return '2.x';
  return undefined;
}

/** The major of a chart version or of an artifact revision (`2.1.0@sha256:…`), or undefined when it has none. */
export function majorOfVersion(version: string | undefined): number | undefined {
  if (typeof version !== 'string') return undefined;
  const match = /^v?(\d+)\.\d+\.\d+/.exec(version.trim());
  return match ? Number(match[1]) : undefined;
}

/** The reason a major is not served, naming the two that are. */
export function unsupportedLineText(major: number, where: string): string {
  const what = major === 1 ? ' (the AgentTemplate line)' : '';
  return `${where} resolves the agent chart ${major}.x${what}, which agent-manager does not compose or read; ` +
    `the supported lines are 0.x (${LINE_RENDERS['0.x']}) and 2.x (${LINE_RENDERS['2.x']}): point the ` +
    `OCIRepository's ref.semver at one of them`;
}

/** The source of a line: the namespace's chart source, its resolved version and where the line was read from. */
export interface LineSource {
  /** The OCIRepository's `status.artifact.revision`, when source-controller has resolved one. */
  revision?: string;
  /** The OCIRepository's `spec.ref.semver`. */
  range?: string;
}

/**
 * The line of a chart source: the major of the version it resolved; before it resolved one, the one major its
 * range admits (`rangeLine` decides, since ranges need the chart's own semver dialect), else `fallback`.
 */
export function lineOfSource(
  source: LineSource | undefined, rangeLine: (range: string) => ChartLine | undefined, fallback: ChartLine,
): { line: ChartLine } | { unsupported: number } {
  const major = majorOfVersion(source?.revision);
  if (major !== undefined) {
    const line = lineOfMajor(major);
    return line ? { line } : { unsupported: major };
  }
  const fromRange = source?.range ? rangeLine(source.range) : undefined;
  return { line: fromRange ?? fallback };
}

/**
 * The migration report a person reads: per namespace what each phase did to each agent (the diff, the notes, the
 * revision recorded before the write, the pull request opened, readiness, the objects contract deleted) and what an
 * operator still has to do. The same report goes to stdout and into a ConfigMap per namespace (keys `phase`,
 * `summary`, `report.yaml` and one `<agent>.diff` per agent); a ConfigMap holds at most 1 MiB, so a larger report
 * keeps the summary there and says the whole is on stdout. Pure.
 */
import type { ChartLine } from '../chart-lines/major-line.js';
import { toYaml } from '../yaml.js';
import type { AgentAction } from './plan.js';

export interface AgentReport {
  name: string;
  action: AgentAction;
  notes: string[];
  refusals: string[];
  diff: string;
  /** The revision recording the release as it was before expand wrote it. */
  revisionBefore?: number;
  written?: boolean;
  pullRequest?: string;
  /** After wait: `ready`, or why not. */
  ready?: string;
  /** After contract: the old-line objects deleted. */
  deleted?: string[];
}

export interface NamespaceReport {
  namespace: string;
  phases: string[];
  dryRun: boolean;
  from: ChartLine;
  to: ChartLine;
  targetSource: string;
  agents: AgentReport[];
  bareAgents: string[];
  /** Namespace-wide notes (the shared source moved, the old source deleted). */
  notes: string[];
  /** What an operator must do before the namespace is done; empty when it is. */
  actions: string[];
}

/** The most a ConfigMap's data may hold (the API server's 1 MiB object limit). */
export const MAX_CONFIGMAP_BYTES = 1 << 20;

/** The human summary of a namespace's report. */
export function summaryText(report: NamespaceReport): string {
  const lines = [`namespace ${report.namespace}: chart ${report.from} → ${report.to} ` +
    `(source ${report.targetSource}), phases ${report.phases.join(', ')}` +
    (report.dryRun ? ' (dry run: nothing written)' : '')];
  for (const agent of report.agents) {
    const extra = [agent.pullRequest ? `pull request ${agent.pullRequest}` : '',
      agent.revisionBefore !== undefined ? `revision before: ${agent.revisionBefore}` : '',
      agent.ready ? `ready: ${agent.ready}` : '', agent.deleted?.length ? `deleted ${agent.deleted.join(', ')}` : '']
      .filter(Boolean).join('; ');
    lines.push(`  ${agent.name}: ${agent.action}${extra ? ` (${extra})` : ''}`);
    for (const refusal of agent.refusals) lines.push(`    refused: ${refusal}`);
    for (const note of agent.notes) lines.push(`    note: ${note}`);
  }
  for (const bare of report.bareAgents) {
    lines.push(`  ${bare}: a bare Agent with no HelmRelease (reported, never deleted)`);
  }
  for (const note of report.notes) lines.push(`  note: ${note}`);
  for (const action of report.actions) lines.push(`  action needed: ${action}`);
  return `${lines.join('\n')}\n`;
}

/** The report as YAML, diffs included. */
export function reportYaml(report: NamespaceReport): string {
  return toYaml(report);
}

/** The ConfigMap data of a namespace's report; over 1 MiB, the phase and summary and where the rest is. */
export function reportData(report: NamespaceReport): Record<string, string> {
  const summary = summaryText(report);
  const data: Record<string, string> = { phase: report.phases.join(','), summary, 'report.yaml': reportYaml(report) };
  for (const agent of report.agents) if (agent.diff) data[`${agent.name}.diff`] = agent.diff;
  const bytes = Object.entries(data).reduce((n, [k, v]) => n + utf8Bytes(k) + utf8Bytes(v), 0);
  if (bytes <= MAX_CONFIGMAP_BYTES - 4096) return data;
  return {
    phase: data.phase!,
    summary: `${summary}The full report (${bytes} bytes) is larger than a ConfigMap holds: it is on migrate's ` +
      'stdout.\n',
  };
}

/** The operator actions of every namespace, in namespace order; empty means the run needs no one. */
export function operatorActions(reports: readonly NamespaceReport[]): string[] {
  return reports.flatMap((r) => r.actions.map((a) => `${r.namespace}: ${a}`));
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

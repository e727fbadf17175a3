/**
 * The chart line's own checks of a create, validate or update request, beside the shared ones (name, toolset,
 * skills): arguments the line does not have, and on 2.x the prompt cap, the Harness name and its existence, and
 * the plugins. Each is a violation string, so validate_agent collects them all and a write refuses with the first.
 * Pure: the namespace's Harnesses are passed in (undefined: not read, so existence is not judged).
 */
import type { ChartLine } from './major-line.js';
import { egressViolation } from '../guards/egress.js';
import { missingHarnessText } from './harness.js';
import { harnessNameViolation, lineArgumentViolation, pluginsViolations, systemMessageViolation } from
  './line-arguments.js';
import type { Harness } from '../types.js';

/** What the line checks read of a request. */
export interface LineRequest {
  runtime?: string;
  egress?: string[];
  harness?: string;
  plugins?: unknown;
  requireApproval?: boolean;
  systemMessage?: string;
}

/** Every line-specific problem of a request for namespace `namespace` of chart `line`. */
export function lineSpecViolations(
  line: ChartLine, request: LineRequest, namespace: string, harnesses?: readonly Harness[], chart?: LineChart,
): string[] {
  const argument = lineArgumentViolation(line, request, `namespace ${namespace}`);
  if (line === '0.x') return argument ? [argument] : [];
  const out = argument ? [argument] : [];
  const prompt = systemMessageViolation(request.systemMessage);
  if (prompt) out.push(prompt);
  const badHarness = harnessNameViolation(request.harness);
  if (badHarness) out.push(badHarness);
  else if (typeof request.harness === 'string' && request.harness.trim() !== '' && harnesses) {
    const missing = missingHarnessText(request.harness, namespace, harnesses);
    if (missing) out.push(missing);
  }
  out.push(...pluginsViolations(request.plugins));
  out.push(...egressViolations(request.egress, namespace, chart));
  return out;
}

/** What the resolved chart of the line says: its version, and whether it declares `agent.egress` (2.1 and later). */
export interface LineChart {
  version: string;
  declaresEgress: boolean;
}

/** The egress rules (inventory 5.6) on a list asked for, and whether the chart has the field at all. */
function egressViolations(egress: readonly string[] | undefined, namespace: string, chart?: LineChart): string[] {
  if (egress === undefined || egress.length === 0) return [];
  if (chart && !chart.declaresEgress) {
    return [`egress needs agent chart 2.1 or later: chart ${chart.version}, which namespace ${namespace} follows, ` +
      'has no agent.egress; leave egress out, or move the namespace to a newer chart'];
  }
  const problem = egressViolation(egress);
  return problem ? [problem] : [];
}

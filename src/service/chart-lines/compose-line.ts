/**
 * The values of a create on a chart line: 0.x's composition (core/writes/compose.ts) or 2.x's (core/chart-lines/
 * values-2x.ts) with the installation's Harness, muster and credential. The one place a write picks the line's
 * composition, so the operations above it stay line-agnostic.
 */
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { buildValues2x, type Line2Spec } from '../../core/chart-lines/values-2x.js';
import { applyUpdate2x } from '../../core/chart-lines/update-2x.js';
import { buildValues, type Values } from '../../core/writes/compose.js';
import type { AgentSpec, AgentUpdate } from '../../core/types.js';
import { applyUpdate } from '../../core/writes/update-merge.js';
import type { OperationEnv } from '../operation-env.js';
import { line2Settings } from './line-of.js';

/** The values a create composes on `line`. */
export function composeValues(env: OperationEnv, line: ChartLine, spec: AgentSpec & Line2Spec): Values {
  return line === '2.x' ? buildValues2x(spec, line2Settings(env)) : buildValues(spec);
}

/** The values after an update on `line`. */
export function mergeValues(env: OperationEnv, line: ChartLine, values: Values, update: AgentUpdate & Line2Spec):
Values {
  return line === '2.x' ? applyUpdate2x(values, update, line2Settings(env)) : applyUpdate(values, update);
}

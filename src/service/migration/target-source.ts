/**
 * The chart sources of a migration. The moved releases render from a source of the target line created first
 * (`agent-<major>`: the shared source's URL, interval, secretRef and provider, with the target line's range), so no
 * release is ever asked to render one line's values with the other line's chart. Once every release of the
 * namespace has moved, the shared source (`agent`, the one creates compose) follows the target line too, so
 * `lineOf` answers the target line for new agents; old-line sources nothing references any more go in contract.
 */
import {
  buildOciRepository, chartNameOf, MANAGED_BY_LABEL, MANAGED_BY_VALUE, type ComposedObject,
} from '../../core/writes/compose.js';
import { asObject, isJsonObject } from '../../core/json.js';
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { lineOfRange } from '../../chart/line-range.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject } from '../ports.js';

/** The name of the target line's source: the chart's name and the line's major (`agent-2`, `agent-0`). */
export function targetSourceName(env: Pick<OperationEnv, 'compose'>, line: ChartLine): string {
  return `${chartNameOf(env.compose.chartOciUrl)}-${line.slice(0, 1)}`;
}

/** The range a target-line source follows: `--agent-chart-semver` when it names that line, else the whole line. */
export function targetRange(env: Pick<OperationEnv, 'compose'>, line: ChartLine): string {
  return lineOfRange(env.compose.chartSemver) === line ? env.compose.chartSemver : line;
}

/** The target line's source, cloned from the namespace's shared source (or composed when it has none). */
export function targetSourceObject(
  env: Pick<OperationEnv, 'compose'>, namespace: string, line: ChartLine, shared: KubeObject | undefined,
): ComposedObject {
  const base = buildOciRepository(namespace, env.compose);
  const sharedSpec = shared?.spec;
  const spec = structuredClone(isJsonObject(sharedSpec) ? sharedSpec : base.spec);
  spec.ref = { semver: targetRange(env, line) };
  return {
    apiVersion: shared?.apiVersion ?? base.apiVersion, kind: 'OCIRepository',
    metadata: { name: targetSourceName(env, line), namespace, labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE } },
    spec,
  };
}

/** The shared source following the target line: its range replaced, everything else kept. */
export function followingSource(env: Pick<OperationEnv, 'compose'>, shared: KubeObject, line: ChartLine): KubeObject {
  const next = structuredClone(shared);
  const spec = asObject(next.spec);
  spec.ref = { semver: targetRange(env, line) };
  next.spec = spec;
  return next;
}

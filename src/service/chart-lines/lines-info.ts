/**
 * get_info's `chartLines`: the chart line of each managed namespace, as its shared source says (or, without one,
 * the line a create there would start), the chart version it resolved, where that line's values schema comes
 * from now, and what agents of the line can have beyond the shared fields. One namespace whose source cannot be
 * read, or follows a line agent-manager does not serve, carries `error`; the others stand.
 */
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { chartNameOf } from '../../core/writes/compose.js';
import { toAppError } from '../../core/errors.js';
import { schemaDeclares } from '../../core/values-schema.js';
import type { ChartLineInfo } from '../../core/types.js';
import type { KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { defaultLine, lineOf, sourceFacts } from './line-of.js';

const BASE_CAPABILITIES: Record<ChartLine, string[]> = {
  '0.x': ['runtime'],
  '2.x': ['harness', 'plugins', 'requireApproval'],
};

async function lineInfo(env: OperationEnv, kube: KubePort, namespace: string): Promise<ChartLineInfo> {
  const name = chartNameOf(env.compose.chartOciUrl);
  let line: ChartLine;
  let revision: string | undefined;
  try {
    // On the chance it exists: a namespace without agents has no source, and a warm cache answers that miss.
    const source = await kube.get(env.types.ociRepository, namespace, name, { onChance: true });
    revision = sourceFacts(source)?.revision;
    line = lineOf(env, source, `the OCIRepository ${namespace}/${name}`);
  } catch (err) {
    return { namespace, line: defaultLine(env), capabilities: [], error: toAppError(err).detail };
  }
  const [schema, chart] = await Promise.all([env.deps.chart.schema(line), env.deps.chart.info(line)]);
  const capabilities = [...BASE_CAPABILITIES[line]];
  if (line === '2.x' && schemaDeclares(schema.schema, 'agent', 'egress')) capabilities.push('egress');
  const out: ChartLineInfo = { namespace, line, schemaSource: chart.schemaSource, capabilities };
  const version = revision?.split('@')[0];
  if (version) out.chartVersion = version;
  return out;
}

/** The chart line of every managed namespace, in the order they are configured. */
export function chartLinesInfo(env: OperationEnv, kube: KubePort): Promise<ChartLineInfo[]> {
  return Promise.all(env.settings.namespaces.managed.map((namespace) => lineInfo(env, kube, namespace)));
}

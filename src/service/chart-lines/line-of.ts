/**
 * Which chart line an operation acts on. A create uses the namespace's shared source: the major of the chart it
 * resolved (`status.artifact.revision`), before that the one major its range admits, and without a source the
 * line new sources get (`--agent-chart-semver`). An existing agent uses the source its release renders from, so a
 * namespace can hold both lines while it migrates. A chart line agent-manager does not serve (1.x, the
 * AgentTemplate line) is a 400 naming the two it serves: nothing is composed or written with the wrong rules.
 */
import {
  lineOfSource, unsupportedLineText, type ChartLine, type LineSource,
} from '../../core/chart-lines/major-line.js';
import type { Line2Settings } from '../../core/chart-lines/values-2x.js';
import { invalid } from '../../core/errors.js';
import { lineOfRange } from '../../chart/line-range.js';
import type { KubeObject, KubePort, ResolvedSchema } from '../ports.js';
import type { LineChart } from '../../core/chart-lines/spec-checks.js';
import { schemaDeclares } from '../../core/values-schema.js';
import type { OperationEnv } from '../operation-env.js';
import { sourceOfRelease } from './shared-source.js';
import { optionalString } from '../../core/json.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import { parseOciRepository } from '../../core/objects/oci-repository-view.js';

/** The line new sources get: the configured range's. */
export function defaultLine(env: Pick<OperationEnv, 'compose'>): ChartLine {
  return lineOfRange(env.compose.chartSemver) ?? '2.x';
}

/** What an OCIRepository says of its line: the revision it resolved and its range. */
export function sourceFacts(source: KubeObject | undefined): LineSource | undefined {
  if (!source || source.metadata.deletionTimestamp) return undefined;
  const { revision, semver: range } = parseOciRepository(source);
  return { ...(revision ? { revision } : {}), ...(range ? { range } : {}) };
}

/** The line of a source (or of none: the default), or the 400 of a line agent-manager does not serve. */
export function lineOf(env: Pick<OperationEnv, 'compose'>, source: KubeObject | undefined, where: string): ChartLine {
  const found = lineOfSource(sourceFacts(source), lineOfRange, defaultLine(env));
  if ('unsupported' in found) throw invalid(unsupportedLineText(found.unsupported, where));
  return found.line;
}

/**
 * The line of a release: of the source its chartRef names, else of the chart version it last installed. `read`
 * is a source already read in the caller's round (the namespace's shared one), used when it is the one named.
 */
export async function lineOfRelease(
  env: OperationEnv, kube: KubePort, release: KubeObject, read?: KubeObject,
): Promise<ChartLine> {
  const ref = sourceOfRelease(release);
  const known = read && ref && read.metadata.name === ref.name && read.metadata.namespace === ref.namespace;
  const source = known ? read : ref ? await kube.get(env.types.ociRepository, ref.namespace, ref.name) : undefined;
  const where = `the OCIRepository ${ref?.namespace ?? ''}/${ref?.name ?? ''} of HelmRelease ` +
    `${release.metadata.namespace ?? ''}/${release.metadata.name}`;
  if (source) return lineOf(env, source, where);
  const installed = optionalString(parseHelmRelease(release).status.history[0]?.chartVersion);
  const found = lineOfSource(installed ? { revision: installed } : undefined, lineOfRange, defaultLine(env));
  if ('unsupported' in found) throw invalid(unsupportedLineText(found.unsupported, where));
  return found.line;
}

/** What the line checks read of a resolved chart: its version and whether it declares `agent.egress`. */
export function lineChart(schema: ResolvedSchema): LineChart {
  return { version: schema.version, declaresEgress: schemaDeclares(schema.schema, 'agent', 'egress') };
}

/** The 2.x composition settings of the operation: the installation's, and the workload cluster's muster. */
export function line2Settings(env: OperationEnv): Line2Settings {
  const base = env.settings.line2 ?? { harnessName: 'kagent' };
  return env.placement ? { ...base, target: { musterUrl: env.placement.musterUrl } } : base;
}

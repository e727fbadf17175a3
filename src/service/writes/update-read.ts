/**
 * One consistent read of everything an update (or a rollback, or validate_agent's update) decides on: the
 * agent's objects, the namespace's chart line catalog when the change needs it, the revisions, and the chart
 * line of the release, with the schema that judges the change and the line's own problems with it.
 */
import { chartNameOf } from '../../core/writes/compose.js';
import { harnessUpdateText } from '../../core/chart-lines/harness.js';
import { lineSpecViolations } from '../../core/chart-lines/spec-checks.js';
import { defaultLine, lineChart, lineOfRelease } from '../chart-lines/line-of.js';
import { lineHarnesses, readLineCatalog } from '../chart-lines/line-reads.js';
import type { AgentUpdate } from '../../core/types.js';
import { lookupAgent } from '../reads/lookup.js';
import type { KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { readHistory } from '../revisions/revision-store.js';

/**
 * One consistent read of everything an update decides on; with `history`, the agent's
 * revisions too (a write records one), and with `modelConfigs` the namespace's
 * ModelConfigs even when the update does not name one (a rollback always does).
 */
export async function readForUpdate(
  env: OperationEnv, kube: KubePort, namespace: string, update: AgentUpdate,
  options: { history?: boolean; modelConfigs?: boolean } = {},
) {
  const wantsCatalog = update.modelConfig !== undefined || options.modelConfigs || update.harness !== undefined;
  const [objects, catalog, history, shared] = await Promise.all([
    lookupAgent(kube, env.types, namespace, update.name, env.compose.chartOciUrl),
    wantsCatalog ? readLineCatalog(env, kube, namespace) : Promise.resolve(undefined),
    options.history ? readHistory(kube, env.types, namespace, update.name) : Promise.resolve(undefined),
    // The namespace's shared source, which most releases render from, read in the same round.
    kube.get(env.types.ociRepository, namespace, chartNameOf(env.compose.chartOciUrl)),
  ]);
  // The release's chart line decides how the update merges and which schema judges it.
  const line = objects.release ? await lineOfRelease(env, kube, objects.release, shared) : defaultLine(env);
  const schema = await env.deps.chart.schema(line);
  const modelConfigs = update.modelConfig !== undefined || options.modelConfigs ? catalog?.modelConfigs(line)
    : undefined;
  const lineProblems = [
    ...lineSpecViolations(line, update, namespace, undefined, lineChart(schema)),
  ];
  // The guards of a claude Harness need the namespace's Harnesses on every 2.x write.
  const harnesses = await lineHarnesses(env, kube, namespace, line, catalog);
  const harnessProblem = harnessUpdateText(line, update.harness, namespace, harnesses);
  if (harnessProblem) lineProblems.push(harnessProblem);
  return { objects, modelConfigs, schema, history, line, lineProblems, harnesses };
}

/** What one read of an update finds (readForUpdate's answer). */
export type UpdateRead = Awaited<ReturnType<typeof readForUpdate>>;

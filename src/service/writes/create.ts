/**
 * create_agent: read → decide (core/writes/create-decision.ts) → act (apply-create.ts, or a pull request
 * in commit mode) → answer. Checks first, writes last, so a refusal writes nothing. After the input checks,
 * one round of concurrent reads decides the 409s and 400s; the skills are pinned beside that round and
 * their answer awaited after the 409s, so a name that is taken is reported as such whatever GitHub says.
 * On a claude Harness the guards decide, as the caller, before the schema judges what would be written.
 */
import { chartNameOf } from '../../core/writes/compose.js';
import { lineSpecViolations } from '../../core/chart-lines/spec-checks.js';
import { composeValues } from '../chart-lines/compose-line.js';
import { guardValues } from '../guards/harness-guard.js';
import { lineChart, lineOf } from '../chart-lines/line-of.js';
import { readLineCatalog } from '../chart-lines/line-reads.js';
import { getAnyAgent } from '../reads/agent-objects.js';
import { invalid } from '../../core/errors.js';
import { asObject } from '../../core/json.js';
import { metadataMapsViolations } from '../../core/labels.js';
import { validateName } from '../../core/names.js';
import { validateSkills } from '../../core/skills/skill-input.js';
import { validateRemovedArguments, validateToolset } from '../../core/toolset/toolset-grammar.js';
import { toolsetNotes, validatePresets } from '../../core/toolset/toolset-preflight.js';
import { createNameRefusal, createSpecRefusal, decideCreate } from '../../core/writes/create-decision.js';
import type { AgentSpec, CreateRequest, CreateResult } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import { placedValues } from '../fleet/targeting.js';
import { modelConfigViolation, schemaRefusal } from '../write-checks.js';
import type { KubePort } from '../ports.js';
import { createInCommitMode } from '../commit/commit-ops.js';
import type { OperationEnv } from '../operation-env.js';
import { readHistory } from '../revisions/revision-store.js';
import { checkCommitOptions } from '../commit/propose.js';
import { isLive } from '../chart-lines/shared-source.js';
import { SkillPinner, type Pinned } from './skill-pinning.js';
import { applyCreate } from './apply-create.js';

/** The request-only checks every write runs before touching the cluster. */
export function checkSpec(env: OperationEnv, spec: AgentSpec): string {
  validateRemovedArguments(spec);
  checkCommitOptions(spec);
  const namespace = env.settings.namespaces.resolve(spec.namespace);
  validateName(spec.name);
  validateToolset(spec.toolset, { required: true });
  validatePresets(spec.toolset, env.settings.toolsetPresets ?? {});
  if (spec.skills !== undefined) validateSkills(spec.skills);
  const [mapProblem] = metadataMapsViolations(spec);
  if (mapProblem) throw invalid(mapProblem);
  return namespace;
}

/** One round of concurrent reads: everything the create decides on. */
async function readForCreate(env: OperationEnv, kube: KubePort, namespace: string, name: string) {
  const [release, agent, catalog, source, history] = await Promise.all([
    kube.get(env.types.helmRelease, namespace, name),
    getAnyAgent(env, kube, namespace, name),
    readLineCatalog(env, kube, namespace),
    kube.get(env.types.ociRepository, namespace, chartNameOf(env.compose.chartOciUrl)),
    readHistory(kube, env.types, namespace, name),
  ]);
  return { release, agent, catalog, source, history };
}

export async function createAgent(
  env: OperationEnv, ctx: RequestContext, request: CreateRequest,
): Promise<CreateResult> {
  const { dryRun: dryRunFlag, ...spec } = request;
  const dryRun = dryRunFlag === true;
  const namespace = checkSpec(env, spec);
  const { name } = spec;
  const kube = env.kube(ctx);
  // The skills are pinned beside the read round; their answer is awaited after the 409s.
  const pinning = new SkillPinner(env.deps.skillResolver, ctx).pin(spec.skills);
  pinning.catch(() => undefined);
  const read = await readForCreate(env, kube, namespace, name);
  const taken = createNameRefusal({
    namespace, name, release: read.release && { live: isLive(read.release) }, bareAgent: read.agent !== undefined,
  });
  if (taken) throw taken.error;
  // The namespace's chart line decides the values' shape and the schema that judges them.
  const line = lineOf(env, read.source, `the OCIRepository ${namespace}/${chartNameOf(env.compose.chartOciUrl)}`);
  const harnesses = read.catalog.harnesses(line);
  const schema = await env.deps.chart.schema(line);
  const refused = createSpecRefusal({
    lineProblem: lineSpecViolations(line, spec, namespace, harnesses, lineChart(schema))[0],
    modelConfigProblem: modelConfigViolation(namespace, spec.modelConfig, read.catalog.modelConfigs(line)),
  });
  if (refused) throw refused.error;
  const pinned: Pinned = await pinning;
  const lineValues = placedValues(env, composeValues(env, line, { ...spec, skills: pinned.skills }), schema);
  const guarded = await guardValues(env, ctx,
    { line, values: lineValues, harnesses, schema, requestedEgress: spec.egress });
  const decision = decideCreate({
    mode: spec.mode, dryRun, guarded, chartOciUrl: env.compose.chartOciUrl,
    schemaProblem: 'refuse' in guarded ? undefined : schemaRefusal(schema, guarded.values),
    source: read.source && { live: isLive(read.source), url: asObject(read.source.spec).url },
    notes: toolsetNotes(spec.toolset, env.settings.toolsetPresets ?? {}),
  });
  if (decision.kind === 'refuse') throw decision.error;
  if (decision.kind === 'commit') {
    const proposed = await createInCommitMode(
      env, ctx, kube, { ...spec, dryRun }, namespace, decision.values, schema, read.source,
    );
    if (decision.notes.length > 0) proposed.notes = decision.notes;
    return proposed;
  }
  return applyCreate({ env, ctx, kube, spec, namespace, source: read.source, history: read.history, pinned }, decision);
}

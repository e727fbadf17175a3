/**
 * create_agent: checks first, writes last, so a refusal writes nothing. After the input checks, one
 * round of concurrent reads decides the 409s and 400s; the shared OCIRepository is ensured before the
 * HelmRelease and again after it (a concurrent delete on any replica may remove it: shared-source.ts),
 * so no release is left without its source; a source this call created is removed again if the release
 * is refused, kept if its outcome is unknown. The new agent's status is embedded and revision 1 recorded
 * in the same round. A dry run sends both writes with `dryRun=All`, so admission, schema and RBAC judge it.
 */
import { buildHelmRelease, buildOciRepository, chartNameOf, composeManifests } from '../../core/writes/compose.js';
import { lineSpecViolations } from '../../core/chart-lines/spec-checks.js';
import { composeValues } from '../chart-lines/compose-line.js';
import { guardedValues, guardValues } from '../guards/harness-guard.js';
import { lineChart, lineOf } from '../chart-lines/line-of.js';
import { readLineCatalog } from '../chart-lines/line-reads.js';
import { getAnyAgent } from '../reads/agent-objects.js';
import { changedPaths } from '../../core/diff.js';
import { backendError, conflict, invalid, isAppError } from '../../core/errors.js';
import { metadataMapsViolations } from '../../core/labels.js';
import { validateName } from '../../core/names.js';
import { validateSkills } from '../../core/skills/skill-input.js';
import { validateRemovedArguments, validateToolset } from '../../core/toolset/toolset-grammar.js';
import { toolsetNotes, validatePresets } from '../../core/toolset/toolset-preflight.js';
import type { AgentSpec, CreateRequest, CreateResult } from '../../core/types.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import { placedValues } from '../fleet/targeting.js';
import { modelConfigViolation, schemaRefusal } from '../write-checks.js';
import type { KubeObject, KubePort } from '../ports.js';
import { agentFromRelease, withRelease } from '../reads/read-model.js';
import { agentStatus } from '../status/agent-status.js';
import { createInCommitMode } from '../commit/commit-ops.js';
import type { OperationEnv } from '../operation-env.js';
import { nextNumber, readHistory, recordRevision, stampRevision } from '../revisions/revision-store.js';
import { checkCommitOptions } from '../commit/propose.js';
import { ensureSource, isLive, removeSourceIfUnused } from '../chart-lines/shared-source.js';
import { SkillPinner, withSkillRefs } from './skill-pinning.js';
import { organizationNamespace, placedReleaseName } from '../../core/fleet/target-cluster.js';
import { skillRefsText } from '../../core/skills/skill-pins.js';

/** The codes of API answers that prove a write was refused (the API server's 4xx). */
const DEFINITE_REFUSALS = ['invalid_request', 'forbidden', 'conflict', 'not_found', 'unauthenticated'] as const;

export function releaseExistsConflict(namespace: string, name: string) {
  return conflict(`HelmRelease ${namespace}/${name} already exists; use update_agent to change it`);
}

/**
 * On a workload cluster the release `<cluster>-<agent>` may belong to another pair (cluster alpha's
 * agent x-fa2 and cluster alpha-x's agent fa2 share alpha-x-fa2): the 409 names it, not update_agent.
 */
function placedNameTaken(env: OperationEnv, name: string) {
  const target = env.placement?.target;
  if (!target) return undefined;
  return conflict(`HelmRelease ${organizationNamespace(target.organization)}/${placedReleaseName(target, name)} ` +
    `already exists and is not this agent's (releases are named <cluster>-<agent>, so another cluster's agent can ` +
    `have the name); pick another agent name`);
}

/** A release of that name is still being deleted (Flux uninstalls first): the name is free once it is gone. */
export function releaseTerminatingConflict(namespace: string, name: string) {
  return conflict(`HelmRelease ${namespace}/${name} is being deleted; retry create_agent once it is gone`);
}

export function bareAgentExistsConflict(namespace: string, name: string) {
  return conflict(
    `Agent ${namespace}/${name} already exists without a HelmRelease (a bare CR); delete it first (delete_agent with ` +
    `force) or pick another name`,
  );
}

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

export async function createAgent(
  env: OperationEnv, ctx: RequestContext, request: CreateRequest,
): Promise<CreateResult> {
  const { dryRun: dryRunFlag, ...spec } = request;
  const dryRun = dryRunFlag === true;
  const namespace = checkSpec(env, spec);
  const { name } = spec;
  const { types, compose } = env;
  const kube = env.kube(ctx);
  const chartName = chartNameOf(compose.chartOciUrl);
  // The skills are pinned beside the read round; their answer is awaited after the 409s,
  // so a name that is taken is reported as such whatever GitHub says.
  const pinning = new SkillPinner(env.deps.skillResolver, ctx).pin(spec.skills);
  pinning.catch(() => undefined);
  const [release, agent, catalog, source, history] = await Promise.all([
    kube.get(types.helmRelease, namespace, name),
    getAnyAgent(env, kube, namespace, name),
    readLineCatalog(env, kube, namespace),
    kube.get(types.ociRepository, namespace, chartName),
    readHistory(kube, types, namespace, name),
  ]);
  if (release) {
    throw isLive(release) ? releaseExistsConflict(namespace, name) : releaseTerminatingConflict(namespace, name);
  }
  if (agent) throw bareAgentExistsConflict(namespace, name);
  // The namespace's chart line decides the values' shape and the schema that judges them.
  const line = lineOf(env, source, `the OCIRepository ${namespace}/${chartName}`);
  const harnesses = line === '2.x' ? catalog.harnesses() : [];
  const schema = await env.deps.chart.schema(line);
  const [lineProblem] = lineSpecViolations(line, spec, namespace, harnesses, lineChart(schema));
  if (lineProblem) throw invalid(lineProblem);
  const modelConfigProblem = modelConfigViolation(namespace, spec.modelConfig, catalog.modelConfigs(line));
  if (modelConfigProblem) throw invalid(modelConfigProblem);
  const pinned = await pinning;
  const refsText = skillRefsText(pinned.refs);
  const lineValues = placedValues(env, composeValues(env, line, { ...spec, skills: pinned.skills }), schema);
  // On a claude Harness the guards decide, as the caller, before the schema judges what would be written.
  const { values, guard } = guardedValues(await guardValues(env, ctx,
    { line, values: lineValues, harnesses, schema, requestedEgress: spec.egress }));
  const schemaProblem = schemaRefusal(schema, values);
  if (schemaProblem) throw invalid(schemaProblem);
  if (spec.mode === 'commit') {
    const proposed = await createInCommitMode(env, ctx, kube, { ...spec, dryRun }, namespace, values, schema, source);
    const notes = toolsetNotes(spec.toolset, env.settings.toolsetPresets ?? {});
    if (notes.length > 0) proposed.notes = notes;
    return proposed;
  }

  const sourceTemplate = buildOciRepository(namespace, compose) as KubeObject;
  let sourceCreated = false;
  if (!isLive(source)) {
    sourceCreated = dryRun
      ? await dryRunSource(kube, types, sourceTemplate)
      : await ensureSource(kube, types, sourceTemplate, { seen: source ?? null });
  } else if ((source.spec as { url?: unknown } | undefined)?.url !== compose.chartOciUrl) {
    ctx.log.warn(
      { namespace, ociRepository: chartName, url: (source.spec as { url?: unknown }).url, want: compose.chartOciUrl },
      'reusing an OCIRepository that points elsewhere',
    );
  }
  let created: KubeObject;
  const composed = buildHelmRelease(namespace, name, values, compose) as KubeObject;
  if (refsText) withSkillRefs(composed, refsText);
  const revision = nextNumber(history, undefined);
  stampRevision(composed, revision);
  try {
    created = await kube.create(types.helmRelease, composed, { dryRun });
  } catch (err) {
    // Only a refusal the API server answered (4xx) proves the release was not written. A
    // 5xx, a timeout or a dropped connection leaves the outcome unknown: the release may
    // still land, so the source stays (an unused source is harmless; a release without one
    // is not).
    if (sourceCreated && !dryRun && isAppError(err, ...DEFINITE_REFUSALS)) {
      await removeUnusedSource(kube, env, ctx, namespace, chartName);
    }
    if (isAppError(err, 'conflict')) throw placedNameTaken(env, name) ?? releaseExistsConflict(namespace, name);
    throw err;
  }
  const logged = { ...callerLogFields(ctx), namespace, agent: name, modelConfig: spec.modelConfig };
  const result: CreateResult = {
    agent: withRelease(agentFromRelease(created, name), created),
    manifests: composeManifests(namespace, name, values, compose),
    created: { ociRepository: sourceCreated, helmRelease: true },
    mode: 'apply',
  };
  const generation = created.metadata.generation;
  if (typeof generation === 'number') result.generation = generation;
  const notes = toolsetNotes(spec.toolset, env.settings.toolsetPresets ?? {});
  if (notes.length > 0) result.notes = notes;
  const requestedBy = callerName(ctx.caller);
  if (dryRun) {
    // Nothing was stored: no source to ensure again, no status to read, no revision to record.
    ctx.log.info({ ...logged, ociRepositoryCreated: sourceCreated }, 'agent create dry run');
    // A release that was not stored has no version a later write could be based on.
    delete result.agent.version;
    if (requestedBy) result.requestedBy = requestedBy;
    result.dryRun = true;
    return result;
  }
  // The source again, now that the release is written, beside the status read and the first
  // revision's record (none of the three needs another): one concurrent round. The release
  // exists now, so a failed source check is tried once more before the call fails: a 502
  // here would send the caller into a retry that only finds the release.
  const [createdAfter, status, recorded] = await Promise.all([
    ensureSource(
      kube, types, sourceTemplate,
    ).catch(() => ensureSource(kube, types, sourceTemplate)).catch((err: unknown) => {
      throw backendError(`HelmRelease ${namespace}/${name} was written, but its chart source could not be ensured ` +
        `after it: ${err instanceof Error ? err.message : String(err)}`, err);
    }),
    agentStatus(kube, types, namespace, name, env.compose.chartOciUrl).catch(() => undefined),
    recordRevision(env, ctx, kube, {
      agent: name, release: created, revision, history,
      record: { operation: 'create', requestedBy, changed: changedPaths({}, values), values, guard },
    }),
  ]);
  if (createdAfter) result.created.ociRepository = true;
  ctx.log.info({ ...logged, ociRepositoryCreated: result.created.ociRepository }, 'agent created');
  if (status) result.status = status;
  if (requestedBy) result.requestedBy = requestedBy;
  if (recorded.revision !== undefined) result.revision = recorded.revision;
  if (recorded.notes.length > 0) result.notes = [...(result.notes ?? []), ...recorded.notes];
  return result;
}

/**
 * The dry run of creating the source: the create goes to the API server with dryRun=All.
 * True when it would be created; a conflict (another writer's source, or one still being
 * deleted) means the real create would find one to reuse or wait for, so it counts as reuse.
 */
async function dryRunSource(kube: KubePort, types: OperationEnv['types'], template: KubeObject): Promise<boolean> {
  try {
    await kube.create(types.ociRepository, template, { dryRun: true });
    return true;
  } catch (err) {
    if (isAppError(err, 'conflict')) return false;
    throw err;
  }
}

/** Best effort: remove a source this call created when no release references it. */
async function removeUnusedSource(
  kube: KubePort, env: OperationEnv, ctx: RequestContext, namespace: string, chartName: string,
) {
  try {
    await removeSourceIfUnused(kube, env.types, { namespace, name: chartName });
  } catch (err) {
    ctx.log.warn(
      { namespace, ociRepository: chartName, err: err instanceof Error ? err.message : String(err) },
      'could not remove the OCIRepository created for a release that failed',
    );
  }
}

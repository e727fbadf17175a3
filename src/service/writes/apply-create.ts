/**
 * An applied create_agent, acting on its decision (core/writes/create-decision.ts): the shared OCIRepository
 * is ensured before the HelmRelease and again after it (a concurrent delete on any replica may remove it:
 * shared-source.ts), so no release is left without its source; a source this call created is removed again
 * if the release is refused, kept if its outcome is unknown. The new agent's status is embedded and
 * revision 1 recorded in the same round. A dry run sends both writes with `dryRun=All`, so admission,
 * schema and RBAC judge it, and stores, reads and records nothing more.
 */
import { buildHelmRelease, buildOciRepository, chartNameOf, composeManifests } from '../../core/writes/compose.js';
import { createFailure, type CreateDecision } from '../../core/writes/create-decision.js';
import { changedPaths } from '../../core/diff.js';
import { backendError, conflict, isAppError } from '../../core/errors.js';
import { organizationNamespace, placedReleaseName } from '../../core/fleet/target-cluster.js';
import { asObject } from '../../core/json.js';
import { skillRefsText } from '../../core/skills/skill-pins.js';
import type { AgentSpec, CreateResult } from '../../core/types.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import type { KubeObject, KubePort } from '../ports.js';
import { agentFromRelease, withRelease } from '../reads/read-model.js';
import { agentStatus } from '../status/agent-status.js';
import type { OperationEnv } from '../operation-env.js';
import { nextNumber, recordRevision, stampRevision, type HistoryRead } from '../revisions/revision-store.js';
import { ensureSource, removeSourceIfUnused } from '../chart-lines/shared-source.js';
import { withSkillRefs, type Pinned } from './skill-pinning.js';

/** The codes of API answers that prove a write was refused (the API server's 4xx). */
const DEFINITE_REFUSALS = ['invalid_request', 'forbidden', 'conflict', 'not_found', 'unauthenticated'] as const;

/** What an applied create acts with: the request, and what its reads found. */
export interface Creation {
  env: OperationEnv;
  ctx: RequestContext;
  kube: KubePort;
  spec: AgentSpec;
  namespace: string;
  /** The namespace's chart source as read. */
  source: KubeObject | undefined;
  history: HistoryRead;
  pinned: Pinned;
}

type ApplyCreate = Extract<CreateDecision, { kind: 'apply' }>;

export async function applyCreate(c: Creation, decision: ApplyCreate): Promise<CreateResult> {
  const { env, ctx, spec, namespace } = c;
  const sourceTemplate = buildOciRepository(namespace, env.compose);
  const sourceCreated = await prepareSource(c, decision, sourceTemplate);
  const revision = nextNumber(c.history, undefined);
  const created = await createRelease(c, decision, revision, sourceCreated);
  const logged = { ...callerLogFields(ctx), namespace, agent: spec.name, modelConfig: spec.modelConfig };
  const result: CreateResult = {
    agent: withRelease(agentFromRelease(created, spec.name), created),
    manifests: composeManifests(namespace, spec.name, decision.values, env.compose),
    created: { ociRepository: sourceCreated, helmRelease: true },
    mode: 'apply',
  };
  const generation = created.metadata.generation;
  if (typeof generation === 'number') result.generation = generation;
  if (decision.notes.length > 0) result.notes = [...decision.notes];
  const requestedBy = callerName(ctx.caller);
  if (decision.dryRun) {
    // Nothing was stored: no source to ensure again, no status to read, no revision to record.
    ctx.log.info({ ...logged, ociRepositoryCreated: sourceCreated }, 'agent create dry run');
    // A release that was not stored has no version a later write could be based on.
    delete result.agent.version;
    if (requestedBy) result.requestedBy = requestedBy;
    result.dryRun = true;
    return result;
  }
  await afterCreate(c, decision, { created, revision, sourceTemplate, result });
  ctx.log.info({ ...logged, ociRepositoryCreated: result.created.ociRepository }, 'agent created');
  return result;
}

/** The chart source as the decision says: created (true), dry-run created (true when it would be), or reused. */
async function prepareSource(c: Creation, decision: ApplyCreate, template: KubeObject): Promise<boolean> {
  const { env, kube, namespace } = c;
  switch (decision.source) {
    case 'dry-run': return dryRunSource(kube, env.types, template);
    case 'ensure': return ensureSource(kube, env.types, template, { seen: c.source ?? null });
    case 'reuse-elsewhere':
      c.ctx.log.warn({
        namespace, ociRepository: chartNameOf(env.compose.chartOciUrl), url: asObject(c.source?.spec).url,
        want: env.compose.chartOciUrl,
      }, 'reusing an OCIRepository that points elsewhere');
      return false;
    case 'reuse': return false;
  }
}

/** The HelmRelease written (or dry-run): its skill pins and revision number on it. */
async function createRelease(
  c: Creation, decision: ApplyCreate, revision: number | undefined, sourceCreated: boolean,
): Promise<KubeObject> {
  const { env, kube, namespace, spec } = c;
  const composed = buildHelmRelease(namespace, spec.name, decision.values, env.compose);
  const refsText = skillRefsText(c.pinned.refs);
  if (refsText) withSkillRefs(composed, refsText);
  stampRevision(composed, revision);
  try {
    return await kube.create(env.types.helmRelease, composed, { dryRun: decision.dryRun });
  } catch (err) {
    const failure = createFailure({
      namespace, name: spec.name, sourceCreated, dryRun: decision.dryRun,
      definite: isAppError(err, ...DEFINITE_REFUSALS), conflict: isAppError(err, 'conflict'),
      placedTaken: placedNameTaken(env, spec.name),
    });
    if (failure.removeSource) await removeUnusedSource(c);
    throw failure.error ?? err;
  }
}

/**
 * The source again, now that the release is written, beside the status read and the first revision's
 * record (none of the three needs another): one concurrent round. The release exists now, so a failed
 * source check is tried once more before the call fails: a 502 here would send the caller into a retry
 * that only finds the release.
 */
async function afterCreate(
  c: Creation, decision: ApplyCreate,
  written: { created: KubeObject; revision: number | undefined; sourceTemplate: KubeObject; result: CreateResult },
): Promise<void> {
  const { env, ctx, kube, namespace, spec } = c;
  const { created, revision, sourceTemplate, result } = written;
  const requestedBy = callerName(ctx.caller);
  const [createdAfter, status, recorded] = await Promise.all([
    ensureSource(kube, env.types, sourceTemplate).catch(() => ensureSource(kube, env.types, sourceTemplate))
      .catch((err: unknown) => {
        throw backendError(`HelmRelease ${namespace}/${spec.name} was written, but its chart source could not be ` +
          `ensured after it: ${err instanceof Error ? err.message : String(err)}`, err);
      }),
    agentStatus(kube, env.types, namespace, spec.name, env.compose.chartOciUrl).catch(() => undefined),
    recordRevision(env, ctx, kube, {
      agent: spec.name, release: created, revision, history: c.history,
      record: {
        operation: 'create', requestedBy, changed: changedPaths({}, decision.values), values: decision.values,
        guard: decision.guard,
      },
    }),
  ]);
  if (createdAfter) result.created.ociRepository = true;
  if (status) result.status = status;
  if (requestedBy) result.requestedBy = requestedBy;
  if (recorded.revision !== undefined) result.revision = recorded.revision;
  if (recorded.notes.length > 0) result.notes = [...(result.notes ?? []), ...recorded.notes];
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
async function removeUnusedSource(c: Creation): Promise<void> {
  const { kube, env, ctx, namespace } = c;
  const chartName = chartNameOf(env.compose.chartOciUrl);
  try {
    await removeSourceIfUnused(kube, env.types, { namespace, name: chartName });
  } catch (err) {
    ctx.log.warn(
      { namespace, ociRepository: chartName, err: err instanceof Error ? err.message : String(err) },
      'could not remove the OCIRepository created for a release that failed',
    );
  }
}

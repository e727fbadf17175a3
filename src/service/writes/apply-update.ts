/**
 * One attempt of a write through the update path (update_agent, rollback_agent), acting on the decisions of
 * core/writes/update-decision.ts: the release the update may write, the change merged into its values and
 * judged, then proposed (commit mode), left alone (nothing changed) or written. Every write here is recorded
 * as a revision whose number goes onto the release in the same request, so a retried write takes the next
 * number; a dry run stores nothing and records nothing, and answers the release at the version it was read.
 */
import { composeManifests } from '../../core/writes/compose.js';
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { isAppError } from '../../core/errors.js';
import { asObject } from '../../core/json.js';
import type { StoredRevision } from '../../core/revisions/revision-record.js';
import { SKILL_REFS_ANNOTATION, type SkillRefs } from '../../core/skills/skill-pins.js';
import { toolsetNotes } from '../../core/toolset/toolset-preflight.js';
import type { AgentUpdate, CommitOptions, RevisionOperation, UpdateResult } from '../../core/types.js';
import type { Preconditions } from '../../core/writes/precondition-rules.js';
import { agentChanged } from '../../core/writes/precondition-rules.js';
import {
  decideUpdate, decideUpdateTarget, lineRefusal, updateConflictOutcome,
} from '../../core/writes/update-decision.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import { mergeValues } from '../chart-lines/compose-line.js';
import { updateInCommitMode } from '../commit/commit-ops.js';
import { withCommitHint } from '../commit/commit-hint.js';
import { guardValues } from '../guards/harness-guard.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';
import { agentVersion } from '../reads/agent-version.js';
import { lookupAgent, noAgentToWrite } from '../reads/lookup.js';
import { agentOf } from '../reads/read-model.js';
import {
  historyNear, nextNumber, recordRevision, releaseRevisions, stampRevision, type HistoryRead, type Recorded,
} from '../revisions/revision-store.js';
import { updateSchemaRefusal } from '../write-checks.js';
import { releaseFacts } from './release-facts.js';
import { mergeUpdate, withGuarded, type GuardedMerge } from './prepare-update.js';
import { withSkillRefs, type SkillPinner } from './skill-pinning.js';
import type { UpdateRead } from './update-read.js';

/** What a write through the update path changes, decided from the read round. */
export interface Resolved {
  update: AgentUpdate;
  rolledBackTo?: number;
  /** What the skills of `update` asked for when they were pinned (a rollback: the revision's record). */
  skillRefs?: SkillRefs;
}

/**
 * A write through the update path: `target` names the agent (and carries `force`) for
 * the request-only checks and the read; `resolve` turns the release's revisions into
 * the update to merge (update_agent: the update as given; rollback_agent: the revision's
 * spec).
 */
export interface UpdatePlan {
  target: AgentUpdate;
  operation: Exclude<RevisionOperation, 'create'>;
  /** `line`: the chart line the release renders now. */
  resolve(revisions: StoredRevision[], line: ChartLine): Resolved;
}

/** An update in flight: the request, and what every attempt shares (the pinner's answers, the attempts left). */
export interface Updating {
  env: OperationEnv;
  ctx: RequestContext;
  kube: KubePort;
  plan: UpdatePlan;
  namespace: string;
  wanted: Preconditions;
  dryRun: boolean;
  attempts: number;
  pinner: SkillPinner;
  /** A fresh read of everything an attempt decides on, the revisions included. */
  read(): Promise<UpdateRead & { history: HistoryRead }>;
}

/** An attempt that lost a race without a precondition: the caller reads again and retries. */
export const RETRY = Symbol('retry');

/** The change an attempt acts on, once decided. */
interface Change {
  read: UpdateRead & { history: HistoryRead };
  update: AgentUpdate;
  resolved: Resolved;
  merged: GuardedMerge;
}

export async function attemptUpdate(u: Updating, attempt: number): Promise<UpdateResult | typeof RETRY> {
  const { env, ctx, kube, plan } = u;
  const read = await u.read();
  const release = await targetRelease(u, read);
  const history = await historyNear(kube, env.types, read.history, release, plan.target.name);
  const resolved = plan.resolve(releaseRevisions(history, release, ctx.log), read.line);
  // Skills are pinned before the schema sees them and before anything is written.
  const pinned = await u.pinner.pinUpdate(resolved.update, release, {
    refresh: plan.target.refreshSkills === true, known: resolved.skillRefs,
  });
  const update = pinned.update;
  const lineRefused = lineRefusal(read.lineProblems[0]);
  if (lineRefused) throw lineRefused.error;
  const merged = mergeUpdate(read.objects, update, read.modelConfigs, read.schema,
    (values, change) => mergeValues(env, read.line, values, change));
  // On a claude Harness the guards decide, as the caller, on the merged values before the schema judges them.
  const guarded = await guardValues(env, ctx, {
    line: read.line, values: merged.after, harnesses: read.harnesses, schema: read.schema,
    requestedEgress: update.egress,
  });
  const judged = 'refuse' in guarded ? merged : withGuarded(merged, guarded, read.schema);
  const commit = plan.target.mode === 'commit';
  const decision = decideUpdate({
    commit, guarded, modelConfigProblem: judged.modelConfigProblem, changed: judged.changed,
    // In commit mode git is the base, judged with the change once git is read (commit-ops.ts): here only
    // what the change itself breaks is refused (before GitHub is asked), not what only the live values
    // hold, whose drift the pull request is not about. Applied, a value only the live release carries
    // is refused too, saying so and how to get past it.
    schemaProblem: 'refuse' in guarded ? undefined : updateSchemaRefusal(read.schema, judged, update, commit),
    skillRefs: { next: pinned.annotation, current: judged.release.metadata.annotations?.[SKILL_REFS_ANNOTATION] },
  });
  if (decision.kind === 'refuse') throw decision.error;
  const change: Change = { read, update, resolved, merged: judged };
  if (decision.kind === 'commit') return proposeUpdate(u, change);
  if (decision.kind === 'noop') return answerUpdate(u, change, { written: judged.release, recorded: { notes: [] } });
  const outcome = await writeChange(u, change, { annotation: decision.annotation, history, attempt });
  return outcome === RETRY ? RETRY : answerUpdate(u, change, outcome);
}

/** The release the update may write, or the refusal (a GitOps-owned one's with what commit mode would do). */
async function targetRelease(u: Updating, read: UpdateRead): Promise<KubeObject> {
  const { objects } = read;
  const { target } = u.plan;
  const decision = decideUpdateTarget({
    namespace: objects.namespace, name: objects.name, force: target.force === true, commit: target.mode === 'commit',
    wanted: u.wanted,
    release: objects.release && { ...releaseFacts(objects.release, u.wanted), object: objects.release },
    agent: objects.agent !== undefined, missing: objects.foreign ?? noAgentToWrite(objects.namespace, objects.name),
  });
  if (decision.kind === 'target') return decision.release.object;
  if (decision.commitHint && objects.release) {
    throw await withCommitHint(u.env, u.ctx, u.kube, objects.release, decision.error);
  }
  throw decision.error;
}

/** A proposal writes nothing to the cluster, so it records no revision; the toolset notes still apply. */
async function proposeUpdate(u: Updating, change: Change): Promise<UpdateResult> {
  const { env, ctx, kube, plan } = u;
  const { read, update, merged, resolved } = change;
  const proposed = await updateInCommitMode(env, ctx, kube, {
    objects: read.objects, update, merged, schema: read.schema, options: commitOptionsOf(plan.target),
    operation: plan.operation, rolledBackTo: resolved.rolledBackTo,
  });
  const notes = [...toolsetNotes(update.toolset, env.settings.toolsetPresets ?? {}), ...(proposed.notes ?? [])];
  if (notes.length > 0) proposed.notes = notes;
  return proposed;
}

/** What a write left: the release as the API server answered it, and the revision recorded (none in a dry run). */
interface Written {
  written: KubeObject;
  recorded: Recorded;
}

/** Writes the merged values (RETRY: a race lost that may be retried), logs it and records the revision. */
async function writeChange(
  u: Updating, change: Change, step: { annotation?: string | null; history: HistoryRead; attempt: number },
): Promise<Written | typeof RETRY> {
  const { env, ctx, kube, plan, namespace, dryRun } = u;
  const { merged, update, resolved } = change;
  const next = structuredClone(merged.release);
  next.spec = { ...asObject(next.spec), values: merged.after };
  if (step.annotation !== undefined) withSkillRefs(next, step.annotation);
  const revision = nextNumber(step.history, merged.release);
  stampRevision(next, revision);
  let written: KubeObject;
  try {
    written = await kube.replace(env.types.helmRelease, next, { dryRun });
  } catch (err) {
    const resourceVersion = u.wanted.resourceVersion;
    const outcome = updateConflictOutcome(
      { conflict: isAppError(err, 'conflict'), resourceVersion, attempt: step.attempt, attempts: u.attempts },
    );
    if (outcome === 'retry') return RETRY;
    if (outcome === 'race-lost' && resourceVersion !== undefined) {
      throw await raceLost(u, update.name, resourceVersion, err);
    }
    throw err;
  }
  const logged = {
    ...callerLogFields(ctx), namespace, agent: update.name, changed: merged.changed, attempt: step.attempt, revision,
  };
  // A dry run stores nothing, so it records no revision either.
  if (dryRun) {
    ctx.log.info(logged, `agent ${plan.operation} dry run`);
    return { written, recorded: { notes: [] } };
  }
  ctx.log.info(logged, `agent ${plan.operation === 'rollback' ? 'rolled back' : 'updated'}`);
  const recorded = await recordRevision(env, ctx, kube, {
    agent: update.name, release: written, revision, history: step.history,
    record: {
      operation: plan.operation, rolledBackTo: resolved.rolledBackTo, requestedBy: callerName(ctx.caller),
      changed: merged.changed, values: merged.after, guard: merged.guard,
    },
  });
  return { written, recorded };
}

/** The answer: the agent as written (a dry run: at the version read), the values before and after, the notes. */
function answerUpdate(u: Updating, change: Change, outcome: Written): UpdateResult {
  const { env, ctx, namespace, dryRun } = u;
  const { merged, update, read } = change;
  // A dry run answers the release as the API server would have stored it, at the version it was read.
  const written = dryRun ? withVersion(outcome.written, merged.release) : outcome.written;
  const agent = agentOf(read.objects.agent, written, update.name);
  const result: UpdateResult = {
    // A dry run changed nothing, so the version (and the ETag made of it) is the one read: the
    // would-be labels and annotations must not make a version no object has.
    agent: dryRun ? { ...agent, version: agentVersion(merged.release) } : agent,
    before: merged.before,
    after: merged.after,
    changed: merged.changed,
    manifests: composeManifests(
      written.metadata.namespace ?? namespace, written.metadata.name, merged.after, env.compose,
    ),
    mode: 'apply',
  };
  // The generation this write left: wait_for_agent with it waits for exactly this change.
  if (typeof written.metadata.generation === 'number') result.generation = written.metadata.generation;
  const requestedBy = callerName(ctx.caller);
  if (requestedBy) result.requestedBy = requestedBy;
  if (dryRun) result.dryRun = true;
  if (outcome.recorded.revision !== undefined) result.revision = outcome.recorded.revision;
  const notes = [...toolsetNotes(update.toolset, env.settings.toolsetPresets ?? {}), ...outcome.recorded.notes];
  if (notes.length > 0) result.notes = notes;
  return result;
}

/** The commit-mode options of the request (a rollback's update is built from a revision, without them). */
function commitOptionsOf(target: AgentUpdate): CommitOptions {
  const { mode, repository, branch, path, dryRun } = target;
  return { mode, repository, branch, path, dryRun };
}

/** The 412 of a precondition whose write lost a race: names the version the release is at now. */
async function raceLost(u: Updating, name: string, read: string, cause: unknown): Promise<Error> {
  const now = await lookupAgent(u.kube, u.env.types, u.namespace, name, u.env.compose.chartOciUrl)
    .then((objects) => objects.release?.metadata.resourceVersion, () => 'unknown');
  return agentChanged(u.namespace, name, read, now, cause);
}

/** `release` at the resourceVersion and generation of `read` (a dry run changed neither). */
function withVersion(release: KubeObject, read: KubeObject): KubeObject {
  const { resourceVersion, generation } = read.metadata;
  return {
    ...release, metadata: { ...release.metadata, resourceVersion, ...(generation === undefined ? {} : { generation }) },
  };
}

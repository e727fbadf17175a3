/**
 * update_agent: read, merge (core/writes/update-merge.ts), validate and write the release's values; nothing is
 * written when nothing changed or on a refusal. A write that lost a race (409) is retried from a fresh
 * read, so concurrent updates of different fields all land; with `resourceVersion` it is refused
 * instead (412), since a retry would merge over a change the caller has not seen (preconditions.ts);
 * `dryRun` writes with `dryRun=All`. Every write here (update, rollback) is recorded as a revision whose
 * number goes onto the release in the same request, so a retried write takes the next number.
 */
import { chartNameOf, composeManifests, isSet } from '../../core/writes/compose.js';
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { changedPaths } from '../../core/diff.js';
import type { GuardVerdict } from '../../core/guards/claude-guard.js';
import type { Harness } from '../../core/types.js';
import { guardedValues, guardValues } from '../guards/harness-guard.js';
import { readHarnesses } from '../chart-lines/harnesses.js';
import type { MergedUpdate } from './prepare-update.js';
import type { ResolvedSchema } from '../ports.js';
import { harnessChangeText } from '../../core/chart-lines/harness.js';
import { lineSpecViolations } from '../../core/chart-lines/spec-checks.js';
import { mergeValues } from '../chart-lines/compose-line.js';
import { defaultLine, lineChart, lineOfRelease } from '../chart-lines/line-of.js';
import { readLineCatalog } from '../chart-lines/line-reads.js';
import { invalid, isAppError } from '../../core/errors.js';
import { metadataMapsViolations } from '../../core/labels.js';
import { nameViolation } from '../../core/names.js';
import { skillsViolations } from '../../core/skills/skill-input.js';
import { toolsetViolations, validateRemovedArguments } from '../../core/toolset/toolset-grammar.js';
import { toolsetNotes, validatePresets } from '../../core/toolset/toolset-preflight.js';
import { schemaViolations, updateSchemaRefusal } from '../write-checks.js';
import type { AgentUpdate, CommitOptions, RevisionOperation, UpdateResult } from '../../core/types.js';
import type { StoredRevision } from '../../core/revisions/revision-record.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import { agentVersion } from '../reads/agent-version.js';
import { lookupAgent } from '../reads/lookup.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { checkCommitOptions } from '../commit/propose.js';
import { writableRelease } from './ownership.js';
import { mergeUpdate } from './prepare-update.js';
import {
  agentChanged, checkPreconditions, resourceVersionViolation, versionViolation,
} from './preconditions.js';
import { agentOf } from '../reads/read-model.js';
import {
  historyNear, nextNumber, readHistory, recordRevision, releaseRevisions, stampRevision, type HistoryRead,
  type Recorded,
} from '../revisions/revision-store.js';
import { updateInCommitMode } from '../commit/commit-ops.js';
import { withCommitHint } from '../commit/commit-hint.js';
import { SkillPinner, withSkillRefs } from './skill-pinning.js';
import { SKILL_REFS_ANNOTATION, type SkillRefs } from '../../core/skills/skill-pins.js';

export const MODEL_CONFIG_CLEARED =
  'modelConfig cannot be cleared: name an existing ModelConfig of the namespace (list_model_configs)';

/** The request-only problems of an update (no cluster needed), in check order. */
export function updateViolations(update: AgentUpdate): string[] {
  const problems: string[] = [];
  const badName = nameViolation(update.name);
  if (badName) problems.push(badName);
  problems.push(...toolsetViolations(update.toolset, { required: false }));
  if (update.skills !== undefined) problems.push(...skillsViolations(update.skills));
  problems.push(...metadataMapsViolations(update));
  if (update.modelConfig !== undefined && update.modelConfig.trim() === '') problems.push(MODEL_CONFIG_CLEARED);
  const versionProblem = resourceVersionViolation(update.resourceVersion) ?? versionViolation(update.version);
  if (versionProblem) problems.push(versionProblem);
  return problems;
}

/** The request-only checks of an update: the namespace it acts in, or the first problem as a 400. */
export function checkUpdate(env: OperationEnv, update: AgentUpdate): string {
  validateRemovedArguments(update);
  checkCommitOptions(update);
  const namespace = env.settings.namespaces.resolve(update.namespace);
  const [problem] = updateViolations(update);
  if (problem) throw invalid(problem);
  validatePresets(update.toolset, env.settings.toolsetPresets ?? {});
  return namespace;
}

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
  const harnesses = line === '2.x' ? catalog?.harnesses() ?? await readHarnesses(env, kube, namespace) : [];
  if (line === '2.x' && isSet(update.harness)) {
    const problem = harnessChangeText(update.harness, namespace, harnesses);
    if (problem) lineProblems.push(problem);
  }
  return { objects, modelConfigs, schema, history, line, lineProblems, harnesses };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

export async function updateAgent(env: OperationEnv, ctx: RequestContext, update: AgentUpdate): Promise<UpdateResult> {
  return writeUpdate(env, ctx, { target: update, operation: 'update', resolve: () => ({ update }) });
}

export async function writeUpdate(env: OperationEnv, ctx: RequestContext, plan: UpdatePlan): Promise<UpdateResult> {
  const namespace = checkUpdate(env, plan.target);
  const kube = env.kube(ctx);
  const dryRun = plan.target.dryRun === true;
  const precondition = plan.target.resourceVersion;
  const wanted = { resourceVersion: precondition, version: plan.target.version };
  // A resourceVersion precondition is strict: one attempt. A `version` one is checked again on
  // every fresh read, so a controller's status write between our read and our write (which
  // moves resourceVersion, not version) is retried, while a person's change fails the re-check (412).
  const attempts = precondition !== undefined ? 1 : Math.max(1, env.settings.updateAttempts ?? 60);
  const pinner = new SkillPinner(env.deps.skillResolver, ctx);
  for (let attempt = 1; ; attempt++) {
    const read = await readForUpdate(env, kube, namespace, plan.target,
      { history: true, modelConfigs: plan.operation === 'rollback' });
    const { objects, modelConfigs, schema, line } = read;
    let release: KubeObject;
    try {
      release = writableRelease(objects, plan.target.force === true, plan.target.mode === 'commit');
    } catch (err) {
      // A GitOps-owned release refused in apply mode: the 409 says how to propose the change instead.
      if (objects.release && isAppError(err, 'conflict')) {
        throw await withCommitHint(env, ctx, kube, objects.release, err);
      }
      throw err;
    }
    // A precondition that holds writes at the resourceVersion just read (the release is written as read).
    checkPreconditions(namespace, plan.target.name, wanted, release);
    const history = await historyNear(kube, env.types, read.history as HistoryRead, release, plan.target.name);
    const resolved = plan.resolve(releaseRevisions(history, release, ctx.log), line);
    // Skills are pinned before the schema sees them and before anything is written.
    const pinned = await pinner.pinUpdate(resolved.update, release, {
      refresh: plan.target.refreshSkills === true, known: resolved.skillRefs,
    });
    const update = pinned.update;
    const [lineProblem] = read.lineProblems;
    if (lineProblem) throw invalid(lineProblem);
    const merged = await guardMerged(env, ctx, read, mergeUpdate(objects, update, modelConfigs, schema,
      (values, change) => mergeValues(env, line, values, change)), update.egress);
    if (merged.modelConfigProblem) throw invalid(merged.modelConfigProblem);
    // In commit mode git is the base, judged with the change once git is read (commit-ops.ts): here only
    // what the change itself breaks is refused (before GitHub is asked), not what only the live values
    // hold, whose drift the pull request is not about. Applied, a value only the live release carries
    // is refused too, saying so and how to get past it.
    const schemaProblem = updateSchemaRefusal(schema, merged, update, plan.target.mode === 'commit');
    if (schemaProblem) throw invalid(schemaProblem);
    if (plan.target.mode === 'commit') {
      // A proposal writes nothing to the cluster, so it records no revision; the toolset notes still apply.
      const proposed = await updateInCommitMode(env, ctx, kube, {
        objects, update, merged, schema, options: commitOptionsOf(plan.target), operation: plan.operation,
        rolledBackTo: resolved.rolledBackTo,
      });
      const notes = [...toolsetNotes(update.toolset, env.settings.toolsetPresets ?? {}), ...(proposed.notes ?? [])];
      if (notes.length > 0) proposed.notes = notes;
      return proposed;
    }
    let written = merged.release;
    let recorded: Recorded = { notes: [] };
    // What was asked can change without a pin changing (a tag at the branch's head): that is written too.
    const refsChanged =
      pinned.annotation !== undefined &&
      (pinned.annotation ?? undefined) !== merged.release.metadata.annotations?.[SKILL_REFS_ANNOTATION];
    if (merged.changed.length > 0 || refsChanged) {
      const next = structuredClone(merged.release);
      (next.spec as Record<string, unknown>).values = merged.after;
      if (pinned.annotation !== undefined) withSkillRefs(next, pinned.annotation);
      const revision = nextNumber(history, merged.release);
      stampRevision(next, revision);
      try {
        written = await kube.replace(env.types.helmRelease, next, { dryRun });
      } catch (err) {
        if (!isAppError(err, 'conflict')) throw err;
        if (precondition !== undefined) throw await raceLost(env, kube, namespace, update.name, precondition, err);
        if (attempt < attempts) {
          await sleep(Math.min(200, 5 * attempt) * Math.random());
          continue;
        }
        throw err;
      }
      const verb = plan.operation === 'rollback' ? 'rolled back' : 'updated';
      const logged = {
        ...callerLogFields(ctx), namespace, agent: update.name, changed: merged.changed, attempt, revision,
      };
      if (dryRun) {
        // A dry run stores nothing, so it records no revision either.
        ctx.log.info(logged, `agent ${plan.operation} dry run`);
      } else {
        ctx.log.info(logged, `agent ${verb}`);
        recorded = await recordRevision(env, ctx, kube, {
          agent: update.name, release: written, revision, history,
          record: {
            operation: plan.operation, rolledBackTo: resolved.rolledBackTo, requestedBy: callerName(ctx.caller),
            changed: merged.changed, values: merged.after, guard: merged.guard,
          },
        });
      }
    }
    // A dry run answers the release as the API server would have stored it, at the version it was read.
    if (dryRun) written = withVersion(written, merged.release);
    const agent = agentOf(objects.agent, written, update.name);
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
    if (recorded.revision !== undefined) result.revision = recorded.revision;
    const notes = [...toolsetNotes(update.toolset, env.settings.toolsetPresets ?? {}), ...recorded.notes];
    if (notes.length > 0) result.notes = notes;
    return result;
  }
}

/** The commit-mode options of the request (a rollback's update is built from a revision, without them). */
function commitOptionsOf(target: AgentUpdate): CommitOptions {
  const { mode, repository, branch, path, dryRun } = target;
  return { mode, repository, branch, path, dryRun };
}

/** The 412 of a precondition whose write lost a race: names the version the release is at now. */
async function raceLost(
  env: OperationEnv, kube: KubePort, namespace: string, name: string, read: string, cause: unknown,
): Promise<Error> {
  const now = await lookupAgent(kube, env.types, namespace, name, env.compose.chartOciUrl)
    .then((objects) => objects.release?.metadata.resourceVersion, () => 'unknown');
  return agentChanged(namespace, name, read, now, cause);
}

/** `release` at the resourceVersion and generation of `read` (a dry run changed neither). */
function withVersion(release: KubeObject, read: KubeObject): KubeObject {
  const { resourceVersion, generation } = read.metadata as KubeObject['metadata'] & { generation?: number };
  return {
    ...release, metadata: { ...release.metadata, resourceVersion, ...(generation === undefined ? {} : { generation }) },
  };
}

/**
 * The merge as the claude-Harness guards leave it: on a claude Harness the values gain the platform's note and
 * egress (or the write is refused), and what changed and what the schema says are judged on those.
 */
export async function guardMerged(
  env: OperationEnv, ctx: RequestContext, read: { line: ChartLine; harnesses: Harness[]; schema: ResolvedSchema },
  merged: MergedUpdate, requestedEgress?: readonly string[],
): Promise<MergedUpdate & { guard?: GuardVerdict }> {
  const guarded = await guardValues(env, ctx,
    { line: read.line, values: merged.after, harnesses: read.harnesses, schema: read.schema, requestedEgress });
  return withGuarded(merged, guardedValues(guarded), read.schema);
}

/** The merge with the guarded values in place of its own, judged again. */
export function withGuarded(
  merged: MergedUpdate, guarded: { values: Record<string, unknown>; guard?: GuardVerdict }, schema: ResolvedSchema,
): MergedUpdate & { guard?: GuardVerdict } {
  if (guarded.values === merged.after) return merged;
  return { ...merged, after: guarded.values, guard: guarded.guard, changed: changedPaths(merged.before, guarded.values),
    schemaViolations: schemaViolations(schema, guarded.values) };
}

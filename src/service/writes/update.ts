/**
 * update_agent: read → decide (core/writes/update-decision.ts) → act (apply-update.ts, or a pull request in
 * commit mode) → answer. The release's values are read, merged (core/writes/update-merge.ts), validated and
 * written; nothing is written when nothing changed or on a refusal. A write that lost a race (409) is retried
 * from a fresh read, so concurrent updates of different fields all land; with `resourceVersion` it is refused
 * instead (412), since a retry would merge over a change the caller has not seen; `dryRun` writes with
 * `dryRun=All`. rollback_agent goes through here too (rollback.ts), with the revision's spec as the change.
 */
import { invalid } from '../../core/errors.js';
import { validateRemovedArguments } from '../../core/toolset/toolset-grammar.js';
import { updateViolations } from '../../core/writes/update-checks.js';
import { validatePresets } from '../../core/toolset/toolset-preflight.js';
import type { AgentUpdate, UpdateResult } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import { checkCommitOptions } from '../commit/propose.js';
import { SkillPinner } from './skill-pinning.js';
import { attemptUpdate, RETRY, type UpdatePlan, type Updating } from './apply-update.js';
import { readForUpdate } from './update-read.js';
import { readHistory } from '../revisions/revision-store.js';

export type { Resolved, UpdatePlan } from './apply-update.js';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function updateAgent(env: OperationEnv, ctx: RequestContext, update: AgentUpdate): Promise<UpdateResult> {
  return writeUpdate(env, ctx, { target: update, operation: 'update', resolve: () => ({ update }) });
}

export async function writeUpdate(env: OperationEnv, ctx: RequestContext, plan: UpdatePlan): Promise<UpdateResult> {
  const namespace = checkUpdate(env, plan.target);
  const resourceVersion = plan.target.resourceVersion;
  // A resourceVersion precondition is strict: one attempt. A `version` one is checked again on
  // every fresh read, so a controller's status write between our read and our write (which
  // moves resourceVersion, not version) is retried, while a person's change fails the re-check (412).
  const attempts = resourceVersion !== undefined ? 1 : Math.max(1, env.settings.updateAttempts ?? 60);
  const updating: Updating = {
    env, ctx, kube: env.kube(ctx), plan, namespace, attempts, dryRun: plan.target.dryRun === true,
    wanted: { resourceVersion, version: plan.target.version },
    pinner: new SkillPinner(env.deps.skillResolver, ctx),
    read: async () => {
      const read = await readForUpdate(env, updating.kube, namespace, plan.target,
        { history: true, modelConfigs: plan.operation === 'rollback' });
      // The revisions are read in the same round (history: true); a read without them reads them now.
      const history = read.history ?? await readHistory(updating.kube, env.types, namespace, plan.target.name);
      return { ...read, history };
    },
  };
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptUpdate(updating, attempt);
    if (outcome !== RETRY) return outcome;
    await sleep(Math.min(200, 5 * attempt) * Math.random());
  }
}

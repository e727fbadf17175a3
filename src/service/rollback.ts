/**
 * rollback_agent: applies a recorded revision's spec as an update, through the update
 * path (service/update.ts), so every rule of update_agent holds: the ownership guards
 * (GitOps-owned and suspended releases need force), the ModelConfig check, the chart
 * schema in use now (a revision today's schema refuses is refused with the
 * violations), the retry on a lost race, and the recording of the write as a new
 * revision with `operation: rollback` and `rolledBackTo`.
 *
 * The revision is found in the history the update path reads in its first round, so a
 * rollback costs the same sequential requests as an update. Nothing is written when the
 * live release already carries the revision's values. `dryRun` and `resourceVersion` are
 * update's: a dry run stores nothing and records no revision; a precondition refuses a
 * release that moved since it was read (412).
 */
import { invalid } from '../core/errors.js';
import { rollbackUpdate } from '../core/revisions.js';
import type { RollbackResult } from '../core/types.js';
import type { RequestContext } from '../identity/caller.js';
import type { OperationEnv } from './operation-env.js';
import { revisionNotFound } from './revisions.js';
import { updateViolations, writeUpdate } from './update.js';

export interface RollbackRequest {
  namespace?: string;
  name: string;
  revision: number;
  force?: boolean;
  /** As update_agent's: check everything, store nothing, record no revision. */
  dryRun?: boolean;
  /** As update_agent's: the release version the rollback is based on (412 when it moved). */
  resourceVersion?: string;
}

export async function rollbackAgent(env: OperationEnv, ctx: RequestContext, request: RollbackRequest): Promise<RollbackResult> {
  const { name, namespace, force, revision, dryRun, resourceVersion } = request;
  const resolvedNamespace = env.settings.namespaces.resolve(namespace);
  const result = await writeUpdate(env, ctx, {
    target: { name, namespace, force, dryRun, resourceVersion },
    operation: 'rollback',
    resolve: (revisions) => {
      const target = revisions.find((r) => r.revision === revision);
      if (!target) throw revisionNotFound(resolvedNamespace, name, revision);
      const { update, drop } = rollbackUpdate(target.spec, { name, namespace, force });
      const [problem] = updateViolations(update);
      if (problem) throw invalid(`revision ${revision} cannot be applied again: ${problem}`);
      return { update, drop, rolledBackTo: revision };
    },
  });
  const out: RollbackResult = { ...result, rolledBackTo: revision };
  if (result.changed.length === 0) {
    out.notes = [...(result.notes ?? []), `nothing was written: the live release already carries the values of revision ${revision}`];
  }
  return out;
}

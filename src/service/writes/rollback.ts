/**
 * rollback_agent: a recorded revision's spec applied through the update path (writes/update.ts), so every
 * rule of update_agent holds (ownership guards, ModelConfig, toolset, today's chart schema, race retries,
 * dry run, preconditions) and the write is recorded with `operation: rollback`, at an update's cost. Which
 * revision and which update is core/writes/rollback-decision.ts's decision, on the revisions the update path
 * read. In commit mode the same checks run and the values are proposed as a pull request, nothing recorded.
 */
import { crossLineRollback } from '../../core/migration/revision-line.js';
import { keptToolsetNote, rollbackUpdate } from '../../core/revisions/revision-record.js';
import { wideningRollbackNote } from '../../core/toolset/toolset-reach.js';
import { decideRollback, type RevisionRules } from '../../core/writes/rollback-decision.js';
import type { CommitOptions, RevisionSpec, RollbackResult } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import { malformedRevision, revisionNotFound } from '../revisions/revision-reads.js';
import { writeUpdate } from './update.js';

export interface RollbackRequest extends CommitOptions {
  namespace?: string;
  name: string;
  revision: number;
  force?: boolean;
  /** As update_agent's: check everything, store nothing, record no revision. */
  dryRun?: boolean;
  /** As update_agent's: the release version the rollback is based on (412 when it moved). */
  resourceVersion?: string;
  /** As update_agent's: the agent's `version` the rollback is based on. */
  version?: string;
  /** Re-resolve the revision's skills to the head of what they asked for, instead of its pins. */
  refreshSkills?: boolean;
}

const RULES: RevisionRules = {
  notFound: revisionNotFound, malformed: malformedRevision, crossLine: crossLineRollback, updateOf: rollbackUpdate,
};

export async function rollbackAgent(
  env: OperationEnv, ctx: RequestContext, request: RollbackRequest,
): Promise<RollbackResult> {
  const {
    name, namespace, force, revision, dryRun, resourceVersion, version, mode, repository, branch, path, refreshSkills,
  } = request;
  const resolvedNamespace = env.settings.namespaces.resolve(namespace);
  let applied: RevisionSpec = {};
  const result = await writeUpdate(env, ctx, {
    target: { name, namespace, force, dryRun, resourceVersion, version, mode, repository, branch, path, refreshSkills },
    operation: 'rollback',
    resolve: (revisions, line) => {
      const decision = decideRollback({
        namespace: resolvedNamespace, requestNamespace: namespace, name, revision, force, mode, revisions, line,
        presets: env.settings.toolsetPresets ?? {},
      }, RULES);
      if (decision.kind === 'refuse') throw decision.error;
      applied = decision.applied;
      return { update: decision.update, rolledBackTo: decision.rolledBackTo, skillRefs: decision.skillRefs };
    },
  });
  const out: RollbackResult = { ...result, rolledBackTo: revision };
  // In either mode `before` holds the toolset the merge kept (a rollback never removes one).
  const notes = [
    keptToolsetNote(revision, applied, result.before),
    wideningRollbackNote(revision, result.before.toolset, result.after.toolset),
    unchangedNote(result, revision),
  ].filter((n) => n !== undefined);
  if (notes.length > 0) out.notes = [...(result.notes ?? []), ...notes];
  return out;
}

/**
 * Why nothing was written or proposed. An applied rollback compares with the live
 * release; a proposed one with git, which may already carry the revision's values
 * (a merged change Flux has not applied yet) or differ from the live release.
 */
function unchangedNote(result: Omit<RollbackResult, 'rolledBackTo'>, revision: number): string | undefined {
  if (result.mode === 'commit') {
    const files = result.commit?.files ?? [];
    if (files.some((f) => f.action !== 'unchanged')) return undefined;
    return `nothing was proposed: the GitOps repository already carries the values of revision ${revision}`;
  }
  if (result.changed.length > 0) return undefined;
  return `nothing was written: the live release already carries the values of revision ${revision}`;
}

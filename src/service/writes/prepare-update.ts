/**
 * An update merged onto the release it may write, and what is wrong with the result: the
 * step an applied update, a validate_agent and a commit-mode update share, so all three
 * refuse the same values. Ownership refusals (404/409) and a toolset removal are thrown;
 * the modelConfig and chart-schema problems are returned for the caller to report.
 */
import { changedPaths } from '../../core/diff.js';
import { asObject, isJsonObject } from '../../core/json.js';
import type { GuardVerdict } from '../../core/guards/claude-guard.js';
import { conflict, invalid } from '../../core/errors.js';
import { valuesShapeProblem } from '../../core/release-values.js';
import { toolsetRemovalViolation } from '../../core/revisions/revision-record.js';
import type { AgentUpdate } from '../../core/types.js';
import { applyUpdate } from '../../core/writes/update-merge.js';
import type { AgentObjects } from '../reads/lookup.js';
import type { KubeObject, ResolvedSchema } from '../ports.js';
import { modelConfigViolation, schemaViolations } from '../write-checks.js';
import { writableRelease } from './ownership.js';

export interface MergedUpdate {
  release: KubeObject;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  changed: string[];
  /** Why the merged values may not be written: the modelConfig problem, then each schema violation. */
  modelConfigProblem?: string;
  schemaViolations: string[];
}

/** The merge of an update into the release it may write; ownership refusals (404/409) are thrown. */
export function mergeUpdate(
  objects: AgentObjects, update: AgentUpdate, modelConfigs: KubeObject[] | undefined, schema: ResolvedSchema,
  merge: (values: Record<string, unknown>, update: AgentUpdate) => Record<string, unknown> = applyUpdate,
): MergedUpdate {
  const release = writableRelease(objects, update.force === true, update.mode === 'commit');
  const raw = asObject(release.spec).values;
  // A change is merged into the values there are; into values that are no object it cannot be.
  const malformed = valuesShapeProblem(raw);
  // A commit-mode change is merged into git's values (commit-ops.ts): the live ones only show drift.
  if (malformed && update.mode !== 'commit') {
    const where = `-n ${release.metadata.namespace ?? objects.namespace} ${release.metadata.name}`;
    throw conflict(`agent ${objects.namespace}/${objects.name}: its HelmRelease's ${malformed}, so no change can ` +
      `be merged into them; fix spec.values (kubectl edit helmrelease ${where}) or delete the agent and create ` +
      'it again');
  }
  const before = isJsonObject(raw) ? raw : {};
  const after = merge(before, update);
  const removal = toolsetRemovalViolation(before, after);
  if (removal) throw invalid(removal);
  return {
    release, before, after, changed: changedPaths(before, after),
    modelConfigProblem: modelConfigs
      ? modelConfigViolation(objects.namespace, update.modelConfig, modelConfigs)
      : undefined,
    schemaViolations: schemaViolations(schema, after),
  };
}

/** The merge as the claude-Harness guards leave it: with the verdict when they allowed changed values. */
export type GuardedMerge = MergedUpdate & { guard?: GuardVerdict };

/**
 * The merge with the guarded values in place of its own, judged again: on a claude Harness the values gain
 * the platform's note and egress, and what changed and what the schema says are judged on those.
 */
export function withGuarded(
  merged: MergedUpdate, guarded: { values: Record<string, unknown>; guard?: GuardVerdict }, schema: ResolvedSchema,
): GuardedMerge {
  if (guarded.values === merged.after) return merged;
  return { ...merged, after: guarded.values, guard: guarded.guard, changed: changedPaths(merged.before, guarded.values),
    schemaViolations: schemaViolations(schema, guarded.values) };
}

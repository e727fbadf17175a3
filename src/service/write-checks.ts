/**
 * The checks create, update and validate share, as violations (strings without the
 * `invalid request: ` prefix) so validate_agent can collect them and the writes can
 * refuse with the first one.
 */
import { isSet } from '../core/writes/compose.js';
import { goQuote } from '../core/go-quote.js';
import {
  liveViolationsAdvice, splitViolations, updatePaths, type SplitViolations,
} from '../core/status/live-violations.js';
import type { AgentUpdate } from '../core/types.js';
import { schemaErrorText, valuesViolations } from '../core/values-schema.js';
import type { ResolvedSchema, KubeObject } from './ports.js';

/** Why `name` is not a ModelConfig of the namespace, or undefined when it is. */
export function modelConfigViolation(
  namespace: string, name: string | undefined, configs: readonly KubeObject[],
): string | undefined {
  if (!isSet(name)) return 'modelConfig is required';
  const names = configs.map((c) => c.metadata.name).sort();
  if (names.includes(name)) return undefined;
  if (names.length === 0) {
    return `modelConfig ${goQuote(name)} does not exist in namespace ${namespace}: there is no ModelConfig in ` +
      `namespace ${namespace}; ` +
      'if the namespace does not exist, create it or point --kagent-namespace or --managed-namespaces at the ' +
      'namespace kagent runs in, ' +
      'otherwise ask a platform admin to provision ModelConfigs there';
  }
  return `modelConfig ${goQuote(name)} does not exist in namespace ${namespace}; valid: ${names.join(', ')}`;
}

/** The schema violations of `values`, one line each. */
export function schemaViolations(resolved: ResolvedSchema, values: Record<string, unknown>): string[] {
  return valuesViolations(resolved.schema, values, { version: resolved.version, source: resolved.source });
}

/** The create/update refusal for violations, or undefined when there are none. */
export function schemaRefusal(resolved: ResolvedSchema, values: Record<string, unknown>): string | undefined {
  const violations = schemaViolations(resolved, values);
  return violations.length > 0 ? schemaErrorText(resolved.version, resolved.source, violations) : undefined;
}

/** What an update's refusal needs of its merge: the live values, the merged values' violations, the release. */
export interface MergedValues {
  before: Record<string, unknown>;
  schemaViolations: string[];
  release: KubeObject;
}

/**
 * Which of an update's merged-value violations the live release already carries in fields the update does not
 * set (core/status/live-violations.ts), and what to do about them; none when the schema refuses nothing.
 */
export function liveSchemaViolations(
  resolved: ResolvedSchema, merged: MergedValues, update: AgentUpdate,
): SplitViolations & { advice?: string } {
  if (merged.schemaViolations.length === 0) return { change: [], live: [] };
  const live = schemaViolations(resolved, merged.before);
  const split = splitViolations(merged.schemaViolations, live, updatePaths(update));
  if (split.live.length === 0) return split;
  const { namespace = '', name } = merged.release.metadata;
  return { ...split, advice: liveViolationsAdvice(split.live, resolved.schema, { namespace, name }) };
}

/**
 * The refusal of an update whose merged values the schema refuses, or undefined. Applied, it lists every
 * violation and says which the live release already carries and how to get past them; proposed
 * (`commit`), git is the base and the live values only drift, so only the change's own violations
 * refuse it here.
 */
export function updateSchemaRefusal(
  resolved: ResolvedSchema, merged: MergedValues, update: AgentUpdate, commit: boolean,
): string | undefined {
  const split = liveSchemaViolations(resolved, merged, update);
  const refused = commit ? split.change : merged.schemaViolations;
  if (refused.length === 0) return undefined;
  const text = schemaErrorText(resolved.version, resolved.source, refused);
  return commit || split.advice === undefined ? text : `${text}. ${split.advice}`;
}

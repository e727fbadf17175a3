/**
 * The shape of a recorded revision (a ControllerRevision's `revision` and `data`), read through a
 * schema: anyone who may write ControllerRevisions in the namespace can label one with an agent's name,
 * so it is untrusted input. One that does not fit is reported malformed, naming the field, and never
 * reaches the code that renders or applies it. Only the curated fields of `values` are typed. Pure.
 */
import { z } from 'zod';
import { AGENT_STRING_FIELDS } from '../writes/compose.js';
import { isJsonObject } from '../json.js';

/**
 * The largest revision number read or recorded: 15 digits, as the REST path takes them,
 * and far inside the safe integers, so one past it is still exact.
 */
export const MAX_REVISION = 999_999_999_999_999;

/** The marker a revision's `spec` carries when its curated fields are read from `values` (each value stored once). */
export const SPEC_FROM_VALUES = { $ref: 'values' } as const;

const revisionNumber = z.number().int().min(1).max(MAX_REVISION);
const stringMap = z.record(z.string(), z.string());
// safe: Object.fromEntries types its keys as string; they are exactly AGENT_STRING_FIELDS, each an optional string.
const agentStrings = Object.fromEntries(AGENT_STRING_FIELDS.map((f) => [f, z.string().optional()])) as Record<
  (typeof AGENT_STRING_FIELDS)[number], z.ZodOptional<z.ZodString>
>;

/** A pinned source of chart 2.x's skills and plugins. */
const line2Source = z.looseObject({
  git: z.looseObject({ url: z.string(), commit: z.string() }).optional(),
  oci: z.string().optional(),
  path: z.string().optional(),
});

/** The curated fields inside chart values; any other key passes untouched. */
const valuesSchema = z.looseObject({
  agent: z.looseObject({ name: z.string().optional(), harness: z.string().optional(), ...agentStrings }).optional(),
  modelConfig: z.looseObject({ name: z.string().optional() }).optional(),
  toolset: z.array(z.string()).optional(),
  // Chart 0.x's skills block, or chart 2.x's pinned list.
  skills: z.union([z.looseObject({
    refs: z.array(z.string()).optional(),
    gitRefs: z.array(z.looseObject({
      url: z.string(), path: z.string().optional(), ref: z.string().optional(), name: z.string().optional(),
    })).optional(),
    gitAuthSecretRef: z.looseObject({ name: z.string().optional() }).optional(),
  }), z.array(line2Source.extend({ name: z.string() }))]).optional(),
  plugins: z.array(line2Source.extend({ skills: z.array(z.string()) })).optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
});

/** A spec stored beside the values (revisions recorded before the spec referred to them). */
export const copiedSpecSchema = z.strictObject({
  ...agentStrings,
  modelConfig: z.string().optional(),
  toolset: z.array(z.string()).optional(),
  skills: z.strictObject({
    refs: z.array(z.string()).optional(),
    gitRefs: z.array(z.strictObject({
      url: z.string(), path: z.string().optional(), ref: z.string().optional(), name: z.string().optional(),
    })).optional(),
    gitAuthSecretName: z.string().optional(),
  }).optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
});

const dataSchema = z.looseObject({
  operation: z.enum(['create', 'update', 'rollback']),
  rolledBackTo: revisionNumber.optional(),
  requestedBy: z.string().optional(),
  changed: z.array(z.string()).optional(),
  // The marker or a copy (copiedSpecSchema); read apart, so a refusal names the copy's field.
  spec: z.unknown().optional(),
  values: valuesSchema,
  // Read apart as untrusted input (parseSkillRefs, guardOf), so any value passes here.
  skillRefs: z.unknown().optional(),
  guard: z.unknown().optional(),
});

/** The parts of a ControllerRevision a revision is made of. */
export const storedRevisionSchema = z.object({ revision: revisionNumber, data: dataSchema });

export type StoredRevisionData = z.output<typeof dataSchema>;

/** True for the marker of a spec read from `values`. */
export function isSpecFromValues(spec: unknown): boolean {
  return isJsonObject(spec) && Object.keys(spec).length === 1 && spec.$ref === SPEC_FROM_VALUES.$ref;
}

/** The first thing wrong with a revision, as `data.spec.modelConfig: expected string, received number`. */
export function revisionProblem(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string {
  const [issue] = issues;
  if (!issue) return 'not a revision';
  const path = [...prefix, ...issue.path].map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
    .replace(/^\./, '');
  const message = issue.message.replace(/^Invalid input: /, '');
  return path ? `${path}: ${message}` : message;
}

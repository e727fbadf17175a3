/**
 * Revisions: each create, update and rollback is kept as an immutable `apps/v1` ControllerRevision
 * `<agent>-<N>` in the release's namespace, labelled with the agent, owned by the HelmRelease (so the
 * garbage collector removes the history with the agent) and holding the written `values` once. Numbers
 * are per agent and never reused: the number is written onto the release in the same request, so two
 * racing writes cannot take one. docs/revisions.md "Where revisions live" and "Rules" give the full
 * naming, ownership and numbering rules this module keeps. Pure.
 */
import { blockOfSkillsList } from '../skills/skill-reads.js';
import { AGENT_STRING_FIELDS, isSet, MANAGED_BY_LABEL, MANAGED_BY_VALUE, type Values } from '../writes/compose.js';
import {
  copiedSpecSchema, isSpecFromValues, MAX_REVISION, revisionProblem, SPEC_FROM_VALUES, storedRevisionSchema,
} from './revision-schema.js';
import { parseSkillRefs, type SkillRefs } from '../skills/skill-pins.js';
import type { AgentUpdate, GitRef, RevisionOperation, RevisionSpec, SkillsSpec } from '../types.js';
import { asObject, isJsonObject, optionalString, type JsonObject } from '../json.js';
import { parseControllerRevision } from '../objects/controller-revision-view.js';

export { MAX_REVISION } from './revision-schema.js';
export const AGENT_LABEL = 'agent-manager.giantswarm.io/agent';
export const REVISION_ANNOTATION = 'agent-manager.giantswarm.io/revision';
/** The annotation `kubectl rollout history` prints as CHANGE-CAUSE. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/** A revision as stored, read back. */
export interface StoredRevision {
  revision: number;
  name: string;
  createdAt: string;
  requestedBy?: string;
  /** Absent only on a malformed revision whose operation is not one of ours. */
  operation?: RevisionOperation;
  rolledBackTo?: number;
  changed: string[];
  spec: RevisionSpec;
  values: Values;
  /** The uid of the release the revision belongs to. */
  ownerUid?: string;
  /**
   * What is wrong with a revision that does not fit the schema (core/revisions/revision-schema.ts):
   * it is listed with this, its spec and values are empty, and it cannot be shown or applied.
   */
  problem?: string;
  /** What the pinned skills of `values` asked for (the release's skill-refs annotation then). */
  skillRefs?: SkillRefs;
  /** The claude-Harness guard's verdict that allowed the write. */
  guard?: RevisionGuard;
}

/** What a write records. */
export interface RevisionRecord {
  operation: RevisionOperation;
  rolledBackTo?: number;
  requestedBy?: string;
  changed: string[];
  values: Values;
  /** What the pinned skills of `values` asked for. */
  skillRefs?: SkillRefs;
  /** The claude-Harness guard's verdict that allowed the write (why such an agent was allowed). */
  guard?: RevisionGuard;
}

/** The recorded verdict of the claude-Harness guard. */
export interface RevisionGuard {
  readonly harness: string;
  readonly caller: string;
  readonly checkedAt: string;
  readonly tools: ReadonlyArray<{ readonly name: string; readonly readOnly: boolean }>;
}

/** The release a revision belongs to. */
export interface RevisionOwner {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid: string;
}

export function revisionName(agent: string, revision: number): string {
  return `${agent}-${revision}`;
}

/** The label selector of an agent's revisions. */
export function revisionSelector(agent: string): string {
  return `${AGENT_LABEL}=${agent}`;
}

/** The revision number a release carries, if any (at most MAX_REVISION). */
export function annotatedRevision(annotations: Record<string, string> | undefined): number | undefined {
  const text = annotations?.[REVISION_ANNOTATION];
  if (text === undefined || !/^[1-9][0-9]{0,14}$/.test(text)) return undefined;
  return Number(text);
}

/**
 * The number the next write records: one past the release's annotation and every revision
 * of the release, skipping a number whose object name is taken (`taken`: the names of every
 * labelled object, a deleted release's leftovers and strays included), so no create ever
 * collides with an object already there. Undefined when no number up to MAX_REVISION is free.
 */
export function nextRevision(
  annotated: number | undefined, listed: readonly number[], taken: ReadonlySet<string> = new Set(), agent = '',
): number | undefined {
  let next = listed.reduce((max, n) => Math.max(max, n), annotated ?? 0) + 1;
  while (taken.has(revisionName(agent, next)) && next <= MAX_REVISION) next++;
  return next <= MAX_REVISION ? next : undefined;
}

/** The curated fields the values describe (what a rollback applies again). */
export function specOfValues(values: Values): RevisionSpec {
  const agent = asObject(values.agent);
  const spec: RevisionSpec = {};
  for (const field of AGENT_STRING_FIELDS) {
    const value = optionalString(agent[field]);
    if (value !== undefined) spec[field] = value;
  }
  const modelConfig = optionalString(asObject(values.modelConfig).name);
  if (modelConfig) spec.modelConfig = modelConfig;
  if (Array.isArray(values.toolset)) spec.toolset = values.toolset.filter((s): s is string => typeof s === 'string');
  const skills = skillsSpecOf(Array.isArray(values.skills) ? blockOfSkillsList(values.skills) : values.skills);
  if (skills) spec.skills = skills;
  // Chart 2.x's fields: the Harness (always written on 2.x, so it marks a 2.x revision), plugins and approval.
  const harness = optionalString(agent.harness);
  if (harness) {
    spec.harness = harness;
    const plugins = Array.isArray(values.plugins) ? values.plugins.map(asObject) : [];
    // safe: parseRevision calls this only on values the revision schema accepted, whose valuesSchema.plugins holds
    // each entry to a Plugin's shape (a pinned git or oci source, its path and skills).
    if (plugins.length > 0) spec.plugins = plugins as unknown as NonNullable<RevisionSpec['plugins']>;
    if (asObject(values.muster).requireApproval === true) spec.requireApproval = true;
  }
  for (const key of ['labels', 'annotations'] as const) {
    const map = stringMap(values[key]);
    if (map) spec[key] = map;
  }
  return spec;
}

function stringMap(value: unknown): Record<string, string> | undefined {
  const entries = Object.entries(asObject(value)).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function skillsSpecOf(value: unknown): SkillsSpec | undefined {
  const skills = asObject(value);
  const out: SkillsSpec = {};
  if (Array.isArray(skills.refs)) {
    const refs = skills.refs.filter((s): s is string => typeof s === 'string');
    if (refs.length > 0) out.refs = refs;
  }
  if (Array.isArray(skills.gitRefs)) {
    const gitRefs = skills.gitRefs.map(asObject).filter((g) => typeof g.url === 'string').map((g) => {
      const ref: GitRef = { url: String(g.url) };
      for (const key of ['path', 'ref', 'name'] as const) if (optionalString(g[key])) ref[key] = String(g[key]);
      return ref;
    });
    if (gitRefs.length > 0) out.gitRefs = gitRefs;
  }
  const secret = optionalString(asObject(skills.gitAuthSecretRef).name);
  if (secret) out.gitAuthSecretName = secret;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The update that makes an agent's curated fields those of `spec`: every field is named,
 * so a field the revision did not have is cleared (`""`, `{}`). The toolset is the one
 * exception: a revision without one (recorded before the agent had a toolset) leaves the
 * current toolset in place, because removing it would widen the agent's access to every
 * tool the gateway exposes (`implicitFullAccess`). A rollback restores values; it never
 * grants access the agent does not have now. `keptToolsetNote` says so in the answer.
 */
export function rollbackUpdate(
  spec: RevisionSpec, target: { name: string; namespace?: string; force?: boolean },
): AgentUpdate {
  const update: AgentUpdate = { name: target.name, modelConfig: spec.modelConfig ?? '' };
  if (target.namespace !== undefined) update.namespace = target.namespace;
  if (target.force !== undefined) update.force = target.force;
  for (const field of AGENT_STRING_FIELDS) update[field] = spec[field] ?? '';
  update.skills = spec.skills ?? {};
  update.labels = spec.labels ?? {};
  update.annotations = spec.annotations ?? {};
  if (spec.toolset !== undefined) update.toolset = [...spec.toolset];
  if (spec.harness !== undefined) {
    // A revision of chart 2.x names every 2.x field too, so what it did not have is cleared.
    update.harness = spec.harness;
    update.plugins = spec.plugins ?? [];
    update.requireApproval = spec.requireApproval === true;
  }
  return update;
}

/** The note of a rollback to a revision without a toolset that kept the current one (`before`'s), if it had one. */
export function keptToolsetNote(revision: number, spec: RevisionSpec, before: Values): string | undefined {
  if (spec.toolset !== undefined || !Array.isArray(before.toolset)) return undefined;
  return `revision ${revision} has no toolset; the current toolset [${before.toolset.map(String).join(',')}] is kept ` +
    `(a toolset is never removed)`;
}

/**
 * Why a write may not store `after` over `before`: every release with a toolset keeps one.
 * Without a toolset the chart grants the agent every tool the gateway exposes, so no write
 * path (update, rollback, either mode) may take it away; each checks with this rule.
 */
export function toolsetRemovalViolation(before: Values, after: Values): string | undefined {
  if (!Array.isArray(before.toolset) || Array.isArray(after.toolset)) return undefined;
  return 'the write would remove the agent\'s toolset, which grants it every tool the gateway exposes; a toolset is ' +
    'never removed (set another one instead)';
}

/** A short CHANGE-CAUSE line: the operation, who, and what changed. */
function changeCause(record: RevisionRecord): string {
  const who = record.requestedBy ? ` by ${record.requestedBy}` : '';
  const what = record.operation === 'rollback' ? ` to revision ${String(record.rolledBackTo)}` : '';
  const paths = record.changed.length > 5 ? [...record.changed.slice(0, 5), '…'] : record.changed;
  return `${record.operation}${what}${who}${paths.length > 0 ? `: ${paths.join(', ')}` : ''}`;
}

/** The ControllerRevision that records one write. */
export function buildRevision(agent: string, revision: number, owner: RevisionOwner, record: RevisionRecord) {
  const data: JsonObject = { operation: record.operation };
  if (record.rolledBackTo !== undefined) data.rolledBackTo = record.rolledBackTo;
  if (isSet(record.requestedBy)) data.requestedBy = record.requestedBy;
  data.changed = [...record.changed];
  // Each value is stored once: the curated fields are read from `values` (specOfValues).
  data.spec = { ...SPEC_FROM_VALUES };
  data.values = record.values;
  if (record.skillRefs && (record.skillRefs.gitRefs?.length || record.skillRefs.refs?.length)) {
    data.skillRefs = record.skillRefs;
  }
  if (record.guard) data.guard = structuredClone(record.guard);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(agent, revision),
      namespace: owner.namespace,
      labels: { [AGENT_LABEL]: agent, [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
      annotations: { [CHANGE_CAUSE_ANNOTATION]: changeCause(record) },
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid }],
    },
    revision,
    data,
  };
}

const OPERATIONS: readonly RevisionOperation[] = ['create', 'update', 'rollback'];
const isOperation = (v: unknown): v is RevisionOperation => OPERATIONS.some((o) => o === v);

/**
 * A ControllerRevision read back through the revision schema (core/revisions/revision-schema.ts), or
 * undefined when it has no usable revision number (it cannot be listed or addressed). One
 * that does not fit otherwise comes back with `problem` set, its spec and values empty.
 * Both formats read: `spec` as the marker that refers to `values`, and `spec` as a copy
 * of the curated fields beside them.
 */
export function parseRevision(object: JsonObject): StoredRevision | undefined {
  const { meta, revision, data: rawData, ownerUid } = parseControllerRevision(object);
  if (revision === undefined || revision < 1 || revision > MAX_REVISION) return undefined;
  const base = { revision, name: meta.name, createdAt: meta.creationTimestamp ?? '' };
  const operation = rawData.operation;
  const malformed = (problem: string): StoredRevision => ({
    ...base,
    ...(isOperation(operation) ? { operation } : {}),
    changed: [], spec: {}, values: {}, problem, ...(ownerUid ? { ownerUid } : {}),
  });
  const parsed = storedRevisionSchema.safeParse(object);
  if (!parsed.success) return malformed(revisionProblem(parsed.error.issues));
  const { data } = parsed.data;
  let spec: RevisionSpec;
  if (data.spec === undefined || isSpecFromValues(data.spec)) {
    spec = specOfValues(data.values);
  } else {
    const copied = copiedSpecSchema.safeParse(data.spec);
    if (!copied.success) return malformed(revisionProblem(copied.error.issues, ['data', 'spec']));
    spec = copied.data;
  }
  const out: StoredRevision = {
    ...base, operation: data.operation, changed: data.changed ?? [], spec, values: data.values,
  };
  if (optionalString(data.requestedBy)) out.requestedBy = data.requestedBy;
  if (data.rolledBackTo !== undefined) out.rolledBackTo = data.rolledBackTo;
  // Stored by us, but editable by anyone who may write revisions: parsed as untrusted.
  const askedSkills = data.skillRefs;
  const skillRefs = isJsonObject(askedSkills) ? parseSkillRefs(JSON.stringify(askedSkills)) : {};
  if (skillRefs.gitRefs || skillRefs.refs) out.skillRefs = skillRefs;
  if (ownerUid) out.ownerUid = ownerUid;
  const guard = guardOf(data.guard);
  if (guard) out.guard = guard;
  return out;
}

/** A recorded guard verdict read as untrusted input: kept only when it has the recorded shape. */
function guardOf(raw: unknown): RevisionGuard | undefined {
  const g = asObject(raw);
  if (typeof g.harness !== 'string' || typeof g.caller !== 'string' || typeof g.checkedAt !== 'string' ||
    !Array.isArray(g.tools)) return undefined;
  const tools = g.tools.map(asObject).filter((t) => typeof t.name === 'string' && typeof t.readOnly === 'boolean')
    .map((t) => ({ name: String(t.name), readOnly: t.readOnly === true }));
  return { harness: g.harness, caller: g.caller, checkedAt: g.checkedAt, tools };
}

/** The revisions beyond the newest `keep` (newest first in, the ones to delete out). */
export function beyondLimit(revisions: readonly StoredRevision[], keep: number): StoredRevision[] {
  return [...revisions].sort((a, b) => b.revision - a.revision).slice(Math.max(0, keep));
}

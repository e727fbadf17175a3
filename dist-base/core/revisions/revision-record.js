/**
 * Revisions: each create, update and rollback is kept as an immutable `apps/v1` ControllerRevision
 * `<agent>-<N>` in the release's namespace, labelled with the agent, owned by the HelmRelease (so the
 * garbage collector removes the history with the agent) and holding the written `values` once. Numbers
 * are per agent and never reused: the number is written onto the release in the same request, so two
 * racing writes cannot take one. docs/revisions.md "Where revisions live" and "Rules" give the full
 * naming, ownership and numbering rules this module keeps. Pure.
 */
import { AGENT_STRING_FIELDS, isSet, MANAGED_BY_LABEL, MANAGED_BY_VALUE } from '../compose.js';
import { isPlainObject } from '../diff.js';
import { copiedSpecSchema, isSpecFromValues, MAX_REVISION, revisionProblem, SPEC_FROM_VALUES, storedRevisionSchema, } from './revision-schema.js';
import { parseSkillRefs } from '../skills/skill-pins.js';
export { MAX_REVISION } from './revision-schema.js';
export const AGENT_LABEL = 'agent-manager.giantswarm.io/agent';
export const REVISION_ANNOTATION = 'agent-manager.giantswarm.io/revision';
/** The annotation `kubectl rollout history` prints as CHANGE-CAUSE. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';
const obj = (v) => (isPlainObject(v) ? v : {});
const str = (v) => (typeof v === 'string' && v !== '' ? v : undefined);
export function revisionName(agent, revision) {
    return `${agent}-${revision}`;
}
/** The label selector of an agent's revisions. */
export function revisionSelector(agent) {
    return `${AGENT_LABEL}=${agent}`;
}
/** The revision number a release carries, if any (at most MAX_REVISION). */
export function annotatedRevision(annotations) {
    const text = annotations?.[REVISION_ANNOTATION];
    if (text === undefined || !/^[1-9][0-9]{0,14}$/.test(text))
        return undefined;
    return Number(text);
}
/**
 * The number the next write records: one past the release's annotation and every revision
 * of the release, skipping a number whose object name is taken (`taken`: the names of every
 * labelled object, a deleted release's leftovers and strays included), so no create ever
 * collides with an object already there. Undefined when no number up to MAX_REVISION is free.
 */
export function nextRevision(annotated, listed, taken = new Set(), agent = '') {
    let next = listed.reduce((max, n) => Math.max(max, n), annotated ?? 0) + 1;
    while (taken.has(revisionName(agent, next)) && next <= MAX_REVISION)
        next++;
    return next <= MAX_REVISION ? next : undefined;
}
/** The curated fields the values describe (what a rollback applies again). */
export function specOfValues(values) {
    const agent = obj(values.agent);
    const spec = {};
    for (const field of AGENT_STRING_FIELDS) {
        const value = str(agent[field]);
        if (value !== undefined)
            spec[field] = value;
    }
    const modelConfig = str(obj(values.modelConfig).name);
    if (modelConfig)
        spec.modelConfig = modelConfig;
    if (Array.isArray(values.toolset))
        spec.toolset = values.toolset.filter((s) => typeof s === 'string');
    const skills = skillsSpecOf(values.skills);
    if (skills)
        spec.skills = skills;
    for (const key of ['labels', 'annotations']) {
        const map = stringMap(values[key]);
        if (map)
            spec[key] = map;
    }
    return spec;
}
function stringMap(value) {
    const entries = Object.entries(obj(value)).filter((e) => typeof e[1] === 'string');
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
function skillsSpecOf(value) {
    const skills = obj(value);
    const out = {};
    if (Array.isArray(skills.refs)) {
        const refs = skills.refs.filter((s) => typeof s === 'string');
        if (refs.length > 0)
            out.refs = refs;
    }
    if (Array.isArray(skills.gitRefs)) {
        const gitRefs = skills.gitRefs.map(obj).filter((g) => typeof g.url === 'string').map((g) => {
            const ref = { url: String(g.url) };
            for (const key of ['path', 'ref', 'name'])
                if (str(g[key]))
                    ref[key] = String(g[key]);
            return ref;
        });
        if (gitRefs.length > 0)
            out.gitRefs = gitRefs;
    }
    const secret = str(obj(skills.gitAuthSecretRef).name);
    if (secret)
        out.gitAuthSecretName = secret;
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
export function rollbackUpdate(spec, target) {
    const update = { name: target.name, modelConfig: spec.modelConfig ?? '' };
    if (target.namespace !== undefined)
        update.namespace = target.namespace;
    if (target.force !== undefined)
        update.force = target.force;
    for (const field of AGENT_STRING_FIELDS)
        update[field] = spec[field] ?? '';
    update.skills = spec.skills ?? {};
    update.labels = spec.labels ?? {};
    update.annotations = spec.annotations ?? {};
    if (spec.toolset !== undefined)
        update.toolset = [...spec.toolset];
    return update;
}
/** The note of a rollback to a revision without a toolset that kept the current one (`before`'s), if it had one. */
export function keptToolsetNote(revision, spec, before) {
    if (spec.toolset !== undefined || !Array.isArray(before.toolset))
        return undefined;
    return `revision ${revision} has no toolset; the current toolset [${before.toolset.map(String).join(',')}] is kept ` +
        `(a toolset is never removed)`;
}
/**
 * Why a write may not store `after` over `before`: every release with a toolset keeps one.
 * Without a toolset the chart grants the agent every tool the gateway exposes, so no write
 * path (update, rollback, either mode) may take it away; each checks with this rule.
 */
export function toolsetRemovalViolation(before, after) {
    if (!Array.isArray(before.toolset) || Array.isArray(after.toolset))
        return undefined;
    return 'the write would remove the agent\'s toolset, which grants it every tool the gateway exposes; a toolset is ' +
        'never removed (set another one instead)';
}
/** A short CHANGE-CAUSE line: the operation, who, and what changed. */
function changeCause(record) {
    const who = record.requestedBy ? ` by ${record.requestedBy}` : '';
    const what = record.operation === 'rollback' ? ` to revision ${String(record.rolledBackTo)}` : '';
    const paths = record.changed.length > 5 ? [...record.changed.slice(0, 5), '…'] : record.changed;
    return `${record.operation}${what}${who}${paths.length > 0 ? `: ${paths.join(', ')}` : ''}`;
}
/** The ControllerRevision that records one write. */
export function buildRevision(agent, revision, owner, record) {
    const data = { operation: record.operation };
    if (record.rolledBackTo !== undefined)
        data.rolledBackTo = record.rolledBackTo;
    if (isSet(record.requestedBy))
        data.requestedBy = record.requestedBy;
    data.changed = [...record.changed];
    // Each value is stored once: the curated fields are read from `values` (specOfValues).
    data.spec = { ...SPEC_FROM_VALUES };
    data.values = record.values;
    if (record.skillRefs && (record.skillRefs.gitRefs?.length || record.skillRefs.refs?.length)) {
        data.skillRefs = record.skillRefs;
    }
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
const OPERATIONS = ['create', 'update', 'rollback'];
/**
 * A ControllerRevision read back through the revision schema (core/revisions/revision-schema.ts), or
 * undefined when it has no usable revision number (it cannot be listed or addressed). One
 * that does not fit otherwise comes back with `problem` set, its spec and values empty.
 * Both formats read: `spec` as the marker that refers to `values`, and `spec` as a copy
 * of the curated fields beside them.
 */
export function parseRevision(object) {
    const meta = obj(object.metadata);
    const revision = object.revision;
    if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 1 || revision > MAX_REVISION) {
        return undefined;
    }
    const owners = Array.isArray(meta.ownerReferences) ? meta.ownerReferences.map(obj) : [];
    const owner = owners.find((o) => o.kind === 'HelmRelease');
    const base = { revision, name: String(meta.name ?? ''), createdAt: String(meta.creationTimestamp ?? '') };
    const ownerUid = str(owner?.uid);
    const operation = obj(object.data).operation;
    const malformed = (problem) => ({
        ...base,
        ...(OPERATIONS.includes(operation) ? { operation: operation } : {}),
        changed: [], spec: {}, values: {}, problem, ...(ownerUid ? { ownerUid } : {}),
    });
    const parsed = storedRevisionSchema.safeParse(object);
    if (!parsed.success)
        return malformed(revisionProblem(parsed.error.issues));
    const { data } = parsed.data;
    let spec;
    if (data.spec === undefined || isSpecFromValues(data.spec)) {
        spec = specOfValues(data.values);
    }
    else {
        const copied = copiedSpecSchema.safeParse(data.spec);
        if (!copied.success)
            return malformed(revisionProblem(copied.error.issues, ['data', 'spec']));
        spec = copied.data;
    }
    const out = {
        ...base, operation: data.operation, changed: data.changed ?? [], spec, values: data.values,
    };
    if (str(data.requestedBy))
        out.requestedBy = data.requestedBy;
    if (data.rolledBackTo !== undefined)
        out.rolledBackTo = data.rolledBackTo;
    // Stored by us, but editable by anyone who may write revisions: parsed as untrusted.
    const askedSkills = data.skillRefs;
    const skillRefs = isPlainObject(askedSkills) ? parseSkillRefs(JSON.stringify(askedSkills)) : {};
    if (skillRefs.gitRefs || skillRefs.refs)
        out.skillRefs = skillRefs;
    if (ownerUid)
        out.ownerUid = ownerUid;
    return out;
}
/** The revisions beyond the newest `keep` (newest first in, the ones to delete out). */
export function beyondLimit(revisions, keep) {
    return [...revisions].sort((a, b) => b.revision - a.revision).slice(Math.max(0, keep));
}
//# sourceMappingURL=revision-record.js.map
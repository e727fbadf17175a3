/**
 * What the simulated controllers share when they report: metav1.Condition lists (a
 * condition keeps its lastTransitionTime while its status stays the same, as
 * meta.SetStatusCondition does), status writes that happen only when something changed
 * (so a controller reacting to its own write comes to rest), and core/v1 Events in the
 * shape the event recorder writes (a repeated event bumps `count` and `lastTimestamp`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { deepEqual, isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import type { ResourceRef, SandboxStore } from '../ops/sandbox-store.js';
import { metadata } from './work-loop.js';

/** A metav1.Condition as the controllers write it. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/**
 * A status's condition list read as the conditions it holds. Unchecked, as it always was: status
 * conditions are written by setCondition (here) or by a client through the API, and an entry of
 * another shape is carried along, not guarded against.
 */
export function asConditions(list: unknown[]): Condition[] {
  // safe: see above; readers look at `type`, `status` and `lastTransitionTime`, absent on a foreign entry.
  return list as Condition[];
}

/** The conditions of an object's status. */
export function conditionsOf(obj: JsonObject): Condition[] {
  const status = isObject(obj.status) ? obj.status : {};
  return Array.isArray(status.conditions) ? asConditions(status.conditions.filter(isObject)) : [];
}

/** One condition of an object, by type. */
export function findCondition(obj: JsonObject, type: string): Condition | undefined {
  return conditionsOf(obj).find((c) => c.type === type);
}

/** `conditions` with `next` set (its transition time kept when the status did not change). */
export function setCondition(conditions: readonly Condition[], next: Condition): Condition[] {
  const old = conditions.find((c) => c.type === next.type);
  const lastTransitionTime =
    old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : nowTimestamp();
  const merged: Condition = { ...next, lastTransitionTime };
  return old ? conditions.map((c) => (c.type === next.type ? merged : c)) : [...conditions, merged];
}

/** `conditions` without the given types. */
export function removeConditions(conditions: readonly Condition[], ...types: string[]): Condition[] {
  return conditions.filter((c) => !types.includes(c.type));
}

/** Replace the status when it differs from the stored one; returns the stored object. */
export function writeStatus(
  store: SandboxStore, resource: ResourceRef, obj: JsonObject, status: JsonObject, manager: string,
): JsonObject {
  if (deepEqual(obj.status, status)) return obj;
  return store.updateStatus(resource, { ...structuredClone(obj), status }, { fieldManager: manager });
}

/** The lowercase hex SHA-256 of a text. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with sorted object keys, so equal values digest equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The object an event is about. */
export interface EventSubject {
  readonly kind: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly fieldPath?: string;
}

/** The subject of an event about a stored object. */
export function subjectOf(obj: JsonObject, fieldPath?: string): EventSubject {
  const meta = metadata(obj);
  return {
    kind: String(obj.kind), apiVersion: String(obj.apiVersion), namespace: String(meta.namespace ?? ''),
    name: String(meta.name), uid: String(meta.uid ?? ''), ...(fieldPath ? { fieldPath } : {}),
  };
}

/** Record an Event as a controller's event recorder does; a repeat of the same event is counted. */
export function recordEvent(
  store: SandboxStore, subject: EventSubject, type: 'Normal' | 'Warning', reason: string, message: string,
  component: string,
): void {
  const now = nowTimestamp();
  const repeat = store
    .list('events', { namespace: subject.namespace, fieldSelector: `involvedObject.name=${subject.name}` })
    .items.find(
      (e) =>
        e.reason === reason &&
        e.message === message &&
        isObject(e.involvedObject) &&
        e.involvedObject.uid === subject.uid,
    );
  if (repeat) {
    store.update('events', { ...structuredClone(repeat),
      count: (typeof repeat.count === 'number' ? repeat.count : 1) + 1, lastTimestamp: now },
    { fieldManager: component });
    return;
  }
  store.create('events', {
    apiVersion: 'v1', kind: 'Event',
    metadata: { name: `${subject.name}.${randomBytes(8).toString('hex')}`, namespace: subject.namespace },
    involvedObject: { ...subject },
    reason, message, type, count: 1, firstTimestamp: now, lastTimestamp: now,
    source: { component, ...(component === 'kubelet' ? { host: 'sandbox-node' } : {}) },
    reportingComponent: component, reportingInstance: '',
  }, { fieldManager: component });
}

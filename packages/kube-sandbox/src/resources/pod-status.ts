/**
 * The READY and STATUS cells kubectl prints for a pod, computed the way the real pod
 * printer does: waiting/terminated container reasons (CrashLoopBackOff, Error) win over
 * the phase, and a pod being deleted shows Terminating.
 */
import { isObject, type JsonObject } from '../api/json.js';

const containerStatuses = (pod: JsonObject): JsonObject[] =>
  isObject(pod.status) && Array.isArray(pod.status.containerStatuses)
    ? pod.status.containerStatuses.filter(isObject)
    : [];

/** `ready/total` containers. */
export function podReady(pod: JsonObject): string {
  const total = isObject(pod.spec) && Array.isArray(pod.spec.containers) ? pod.spec.containers.length : 0;
  const ready = containerStatuses(pod).filter((s) => s.ready === true).length;
  return `${ready}/${total}`;
}

/** The STATUS column: container reasons first, then the pod reason or phase. */
export function podStatusReason(pod: JsonObject): string {
  const status = isObject(pod.status) ? pod.status : {};
  let reason = typeof status.reason === 'string' ? status.reason : typeof status.phase === 'string' ? status.phase : '';
  for (const cs of containerStatuses(pod)) {
    const state = isObject(cs.state) ? cs.state : {};
    if (isObject(state.waiting) && typeof state.waiting.reason === 'string' &&
      state.waiting.reason) reason = state.waiting.reason;
    else if (isObject(state.terminated) && typeof state.terminated.reason === 'string' && state.terminated.reason) {
      reason = state.terminated.reason;
    }
  }
  if (isObject(pod.metadata) && pod.metadata.deletionTimestamp) reason = 'Terminating';
  return reason;
}

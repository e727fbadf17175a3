/**
 * The pods of an agent as get_agent_status reports them, from raw Kubernetes Pod
 * objects (plain JSON or client-node objects; the gatherer lists them with the label
 * selector `kagent=<name>`). Container statuses matter more than the phase: a crash-looping
 * pod is phase Running, and only its waiting reason says it will not recover.
 */
import type { ContainerStatus, PodStatus } from '../types.js';
import { asObject, objectList, stringOr, finiteNumberOr, isJsonObject, type JsonObject } from '../json.js';

/**
 * Each pod as `{name, phase, ready, restarts, containers?}`, sorted by name. `ready` comes
 * from the PodReady condition; `restarts` sums restartCount over containers and init
 * containers. `containers` lists, init containers first and flagged `init: true`: waiting
 * ones (with reason and message); terminated ones, for init containers only when the exit
 * code is not 0; and running but not ready non-init ones as `running` / `NotReady`.
 */
export function summarizePods(rawPods: readonly unknown[]): PodStatus[] {
  const pods = rawPods.filter(isJsonObject).map(summarizePod);
  return pods.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function summarizePod(pod: JsonObject): PodStatus {
  const metadata = asObject(pod.metadata);
  const status = asObject(pod.status);
  const ready = objectList(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
  const out: PodStatus = { name: stringOr(metadata.name, ''), phase: stringOr(status.phase, ''), ready, restarts: 0 };
  const containers: ContainerStatus[] = [];
  for (const [statuses, init] of [[status.initContainerStatuses, true], [status.containerStatuses, false]] as const) {
    for (const cs of objectList(statuses)) {
      out.restarts += finiteNumberOr(cs.restartCount, 0);
      const entry = containerEntry(cs, init);
      if (entry !== undefined) containers.push(entry);
    }
  }
  if (containers.length > 0) out.containers = containers;
  return out;
}

function containerEntry(cs: JsonObject, init: boolean): ContainerStatus | undefined {
  const state = asObject(cs.state);
  const name = stringOr(cs.name, '');
  if (isJsonObject(state.waiting)) {
    return entry(name, 'waiting', stringOr(state.waiting.reason, ''), stringOr(state.waiting.message, ''), init);
  }
  if (isJsonObject(state.terminated) && (!init || finiteNumberOr(state.terminated.exitCode, 0) !== 0)) {
    const { reason, message } = state.terminated;
    return entry(name, 'terminated', stringOr(reason, ''), stringOr(message, ''), init);
  }
  if (isJsonObject(state.running) && cs.ready !== true && !init) {
    return entry(name, 'running', 'NotReady', '', init);
  }
  return undefined;
}

function entry(name: string, state: ContainerStatus['state'], reason: string, message: string,
  init: boolean): ContainerStatus {
  const c: ContainerStatus = { name, state };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  if (init) c.init = true;
  return c;
}

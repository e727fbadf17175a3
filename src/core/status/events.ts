/**
 * The recent Warning events of an agent as get_agent_status reports them, from raw
 * Kubernetes Event objects (plain JSON or client-node objects; the gatherer lists the
 * namespace's events with the field selector `type=Warning`). Events are diagnostics: the
 * gatherer answers a list failure with no events, never an error. A warning from before the release last
 * reconciled successfully is history (currentWarnings): it describes an older generation, not what is
 * behind now, so the verdict does not quote it.
 */
import { findCondition } from './conditions.js';
import { formatKubeTime } from '../kube-time.js';
import type { EventSummary, Status } from '../types.js';
import { isJsonObject, stringOr } from '../json.js';

/** At most this many events are reported. */
export const MAX_EVENTS = 10;

/**
 * The Warning events about the agent, newest first, at most ten. An event is kept when its
 * involved object is named like the agent or one of its pods, or is a ReplicaSet or Pod
 * whose name starts with `<agentName>-`. Its time is lastTimestamp, else eventTime, else
 * the event's creationTimestamp; `object` is `Kind/name`.
 */
export function summarizeEvents(
  rawEvents: readonly unknown[], agentName: string, podNames: readonly string[],
): EventSummary[] {
  const pods = new Set(podNames);
  const out: EventSummary[] = [];
  for (const raw of rawEvents) {
    if (!isJsonObject(raw) || raw.type !== 'Warning') continue;
    const involved = isJsonObject(raw.involvedObject) ? raw.involvedObject : {};
    const kind = stringOr(involved.kind, '');
    const name = stringOr(involved.name, '');
    const owned =
      name === agentName || pods.has(name) ||
        ((kind === 'ReplicaSet' || kind === 'Pod') && name.startsWith(`${agentName}-`));
    if (!owned) continue;
    const ev: EventSummary = { type: 'Warning', reason: stringOr(raw.reason, ''), message: stringOr(raw.message, ''),
      object: `${kind}/${name}` };
    const count = raw.count;
    if (typeof count === 'number' && count !== 0) ev.count = count;
    const metadata = isJsonObject(raw.metadata) ? raw.metadata : {};
    const last =
      formatKubeTime(raw.lastTimestamp) ?? formatKubeTime(raw.eventTime) ?? formatKubeTime(metadata.creationTimestamp);
    if (last !== undefined) ev.lastTimestamp = last;
    out.push(ev);
  }
  // Same-shaped UTC strings sort as times; an event without one sorts last. The sort is stable.
  out.sort((a, b) => {
    const x = a.lastTimestamp ?? '';
    const y = b.lastTimestamp ?? '';
    return x > y ? -1 : x < y ? 1 : 0;
  });
  return out.slice(0, MAX_EVENTS);
}

/**
 * When the release last reconciled successfully, to the second (`YYYY-MM-DDTHH:MM:SSZ`), if it says: the later of
 * its Ready condition's turn to True (when that judged the release's current generation, or says for none) and
 * the last deploy of its newest Helm release when that one is `deployed`. A Warning event older than this
 * happened before that success: it belongs to an earlier generation (a failed upgrade since rolled back or
 * superseded, a crash of pods since replaced).
 */
export function lastSuccessAt(release: Status['helmRelease']): string | undefined {
  if (release?.exists !== true) return undefined;
  const times: string[] = [];
  const ready = findCondition(release.conditions, 'Ready');
  const judgedNow = ready?.observedGeneration === undefined || release.generation === undefined ||
    ready.observedGeneration >= release.generation;
  if (ready?.status === 'True' && judgedNow && ready.lastTransitionTime) {
    const at = formatKubeTime(ready.lastTransitionTime);
    if (at !== undefined) times.push(at);
  }
  const newest = release.history?.[0];
  if (newest?.status === 'deployed') {
    const at = formatKubeTime(newest.lastDeployed);
    if (at !== undefined) times.push(at);
  }
  return times.sort().at(-1);
}

/**
 * The events that may speak for the agent now: those not older than the release's last success
 * (lastSuccessAt). An event of that same second is kept (the times are to the second), and so is one
 * without a time, which cannot be placed.
 */
export function currentWarnings(
  events: readonly EventSummary[] | undefined, release: Status['helmRelease'],
): readonly EventSummary[] {
  const since = lastSuccessAt(release);
  if (!events || since === undefined) return events ?? [];
  return events.filter((e) => e.lastTimestamp === undefined || e.lastTimestamp >= since);
}

/**
 * The recent Warning events of an agent as get_agent_status reports them, from raw
 * Kubernetes Event objects (plain JSON or client-node objects; the gatherer lists the
 * namespace's events with the field selector `type=Warning`). Events are diagnostics: the
 * gatherer answers a list failure with no events, never an error.
 */
import { formatKubeTime } from './kube-time.js';
/** At most this many events are reported. */
export const MAX_EVENTS = 10;
/**
 * The Warning events about the agent, newest first, at most ten. An event is kept when its
 * involved object is named like the agent or one of its pods, or is a ReplicaSet or Pod
 * whose name starts with `<agentName>-`. Its time is lastTimestamp, else eventTime, else
 * the event's creationTimestamp; `object` is `Kind/name`.
 */
export function summarizeEvents(rawEvents, agentName, podNames) {
    const pods = new Set(podNames);
    const out = [];
    for (const raw of rawEvents) {
        if (!isObj(raw) || raw.type !== 'Warning')
            continue;
        const involved = isObj(raw.involvedObject) ? raw.involvedObject : {};
        const kind = str(involved.kind);
        const name = str(involved.name);
        const owned = name === agentName || pods.has(name) ||
            ((kind === 'ReplicaSet' || kind === 'Pod') && name.startsWith(`${agentName}-`));
        if (!owned)
            continue;
        const ev = { type: 'Warning', reason: str(raw.reason), message: str(raw.message),
            object: `${kind}/${name}` };
        const count = raw.count;
        if (typeof count === 'number' && count !== 0)
            ev.count = count;
        const metadata = isObj(raw.metadata) ? raw.metadata : {};
        const last = formatKubeTime(raw.lastTimestamp) ?? formatKubeTime(raw.eventTime) ?? formatKubeTime(metadata.creationTimestamp);
        if (last !== undefined)
            ev.lastTimestamp = last;
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
function isObj(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function str(v) {
    return typeof v === 'string' ? v : '';
}
//# sourceMappingURL=events.js.map
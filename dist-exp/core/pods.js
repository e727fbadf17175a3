/**
 * Each pod as `{name, phase, ready, restarts, containers?}`, sorted by name. `ready` comes
 * from the PodReady condition; `restarts` sums restartCount over containers and init
 * containers. `containers` lists, init containers first and flagged `init: true`: waiting
 * ones (with reason and message); terminated ones, for init containers only when the exit
 * code is not 0; and running but not ready non-init ones as `running` / `NotReady`.
 */
export function summarizePods(rawPods) {
    const pods = rawPods.filter(isObj).map(summarizePod);
    return pods.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
function summarizePod(pod) {
    const metadata = obj(pod.metadata);
    const status = obj(pod.status);
    const ready = list(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
    const out = { name: str(metadata.name), phase: str(status.phase), ready, restarts: 0 };
    const containers = [];
    for (const [statuses, init] of [[status.initContainerStatuses, true], [status.containerStatuses, false]]) {
        for (const cs of list(statuses)) {
            out.restarts += num(cs.restartCount);
            const entry = containerEntry(cs, init);
            if (entry !== undefined)
                containers.push(entry);
        }
    }
    if (containers.length > 0)
        out.containers = containers;
    return out;
}
function containerEntry(cs, init) {
    const state = obj(cs.state);
    const name = str(cs.name);
    if (isObj(state.waiting)) {
        return entry(name, 'waiting', str(state.waiting.reason), str(state.waiting.message), init);
    }
    if (isObj(state.terminated) && (!init || num(state.terminated.exitCode) !== 0)) {
        return entry(name, 'terminated', str(state.terminated.reason), str(state.terminated.message), init);
    }
    if (isObj(state.running) && cs.ready !== true && !init) {
        return entry(name, 'running', 'NotReady', '', init);
    }
    return undefined;
}
function entry(name, state, reason, message, init) {
    const c = { name, state };
    if (reason)
        c.reason = reason;
    if (message)
        c.message = message;
    if (init)
        c.init = true;
    return c;
}
function isObj(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function obj(v) {
    return isObj(v) ? v : {};
}
function list(v) {
    return Array.isArray(v) ? v.filter(isObj) : [];
}
function str(v) {
    return typeof v === 'string' ? v : '';
}
function num(v) {
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
//# sourceMappingURL=pods.js.map
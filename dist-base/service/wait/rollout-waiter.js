/**
 * The rollout waiter: follows one agent until its wait ends, on watches instead of polling. It lists and
 * then watches, as the request's identity, what get_agent_status reads (Agent, HelmRelease, Deployment,
 * pods, Warning events; watch-feed.ts), folds each change with that same fold and hands on statuses that
 * are news. It ends when the core's `waitEnd` says, at its deadline or when `signal` aborts, with every
 * watch stopped first. Failing event lists mean no events; a feed the identity may not watch fails the
 * wait with the API server's 401 or 403.
 */
import { agentNotFound } from '../reads/lookup.js';
import { elapsedSeconds, goneStatus, isNews, waitEnd } from '../../core/wait-rules.js';
import { foldStatus, releaseLocation } from '../reads/status.js';
import { openFeed } from './watch-feed.js';
const byName = (name) => ({ fieldSelector: `metadata.name=${name}` });
const first = (feed) => feed?.objects()[0];
/** Follow the agent until the wait ends; rejects when the first reads fail, or a watch is refused. */
export async function waitForRollout(watches, types, wait) {
    const { namespace, name, until } = wait;
    const now = wait.now ?? Date.now;
    const started = now();
    const stop = new AbortController();
    const signal = wait.signal ? AbortSignal.any([wait.signal, stop.signal]) : stop.signal;
    let settle;
    const settled = new Promise((resolve) => { settle = resolve; });
    let ready = false;
    let last;
    let feeds;
    // Events from the feeds before all of them have their first list are folded in once they do.
    const current = () => {
        const f = feeds;
        const agent = first(f.agent);
        const release = first(f.located) ?? first(f.sameName);
        if (!agent && !release)
            return { status: goneStatus(namespace, name), gone: true };
        const status = foldStatus(namespace, name, {
            agent, release, deployment: first(f.deployment), pods: f.pods.objects(), events: f.events?.objects() ?? [],
        }, { generation: wait.generation });
        return { status, gone: false };
    };
    const onChange = () => {
        if (!ready || signal.aborted)
            return;
        const { status, gone } = current();
        if (isNews(last, status)) {
            last = status;
            wait.onStatus?.(status);
        }
        const end = waitEnd(status, gone, until);
        if (end)
            settle({ end });
    };
    const handlers = { onChange, onFail: (error) => settle({ error }) };
    // Events only add detail to a summary: the wait goes on without them, as the status read does.
    const eventHandlers = { onChange, onFail: () => undefined };
    const timer = setTimeout(() => settle({ end: 'timeout' }), wait.timeoutMs);
    const onAbort = () => settle({ end: 'aborted' });
    wait.signal?.addEventListener('abort', onAbort, { once: true });
    try {
        const [agent, sameName, deployment, pods, events] = await Promise.all([
            openFeed(watches, types.agent, namespace, byName(name), handlers, signal),
            openFeed(watches, types.helmRelease, namespace, byName(name), handlers, signal),
            openFeed(watches, types.deployment, namespace, byName(name), handlers, signal),
            openFeed(watches, types.pod, namespace, { labelSelector: `kagent=${name}` }, handlers, signal),
            openFeed(watches, types.event, namespace, { fieldSelector: 'type=Warning' }, eventHandlers, signal).catch(() => undefined),
        ]);
        const where = releaseLocation(first(agent), namespace, name);
        const located = where.name !== name || where.namespace !== namespace
            ? await openFeed(watches, types.helmRelease, where.namespace, byName(where.name), handlers, signal)
            : undefined;
        feeds = { agent, sameName, located, deployment, pods, events };
        if (until === 'ready' && current().gone)
            throw agentNotFound(namespace, name);
        ready = true;
        if (wait.signal?.aborted)
            settle({ end: 'aborted' });
        onChange();
        const outcome = await settled;
        if ('error' in outcome)
            throw outcome.error;
        return { status: current().status, end: outcome.end, waitedSeconds: elapsedSeconds(started, now()) };
    }
    finally {
        clearTimeout(timer);
        wait.signal?.removeEventListener('abort', onAbort);
        stop.abort();
    }
}
//# sourceMappingURL=rollout-waiter.js.map
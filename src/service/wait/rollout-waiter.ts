/**
 * The rollout waiter: follows one agent until its wait ends, on watches instead of polling. It lists and
 * then watches, as the request's identity, what get_agent_status reads (Agent, HelmRelease, Deployment,
 * pods, Warning events; watch-feed.ts), folds each change with that same fold and hands on statuses that
 * are news. It ends when the core's `waitEnd` says, at its deadline or when `signal` aborts, with every
 * watch stopped first. Failing event lists mean no events; a feed the identity may not watch fails the
 * wait with the API server's 401 or 403.
 */
import { agentNotFound } from '../reads/lookup.js';
import {
  elapsedSeconds, goneStatus, isNews, waitEnd, type WaitEnd, type WaitUntil,
} from '../../core/status/wait-rules.js';
import type { AppError } from '../../core/errors.js';
import type { Status } from '../../core/types.js';
import type { KubeObject, WatchPort } from '../ports.js';
import type { ResourceTypes } from '../resources.js';
import { foldStatus, releaseLocation } from '../status/agent-status.js';
import { openFeed, type Feed, type FeedHandlers } from './watch-feed.js';

export interface RolloutWait {
  namespace: string;
  name: string;
  until: WaitUntil;
  timeoutMs: number;
  /** Not ready before the HelmRelease has reached at least this generation (a write's). */
  generation?: number;
  /** Ends the wait early (`aborted`). */
  signal?: AbortSignal;
  /** Every status that is news, the first one included. */
  onStatus?(status: Status): void;
  now?: () => number;
}

export interface RolloutOutcome {
  status: Status;
  end: WaitEnd | 'aborted';
  waitedSeconds: number;
}

const byName = (name: string) => ({ fieldSelector: `metadata.name=${name}` });
const first = (feed: Feed | undefined): KubeObject | undefined => feed?.objects()[0];

/** Follow the agent until the wait ends; rejects when the first reads fail, or a watch is refused. */
export async function waitForRollout(
  watches: WatchPort, types: ResourceTypes, wait: RolloutWait,
): Promise<RolloutOutcome> {
  const { namespace, name, until } = wait;
  const now = wait.now ?? Date.now;
  const started = now();
  const stop = new AbortController();
  const signal = wait.signal ? AbortSignal.any([wait.signal, stop.signal]) : stop.signal;
  let settle!: (outcome: { end: WaitEnd | 'aborted' } | { error: AppError }) => void;
  const settled = new Promise<{ end: WaitEnd | 'aborted' } | { error: AppError }>((resolve) => { settle = resolve; });
  let ready = false;
  let last: Status | undefined;
  let feeds: Feeds | undefined;
  // Events from the feeds before all of them have their first list are folded in once they do.

  const current = (): { status: Status; gone: boolean } => {
    const f = feeds!;
    // Chart 2.x's Agent first: while a release moves to 2.x the old Agent may linger until Helm removes it.
    const agent = first(f.agentV2) ?? first(f.agent);
    const release = first(f.located) ?? first(f.sameName);
    if (!agent && !release) return { status: goneStatus(namespace, name), gone: true };
    const status = foldStatus(namespace, name, {
      agent, release, deployment: first(f.deployment), pods: f.pods.objects(), events: f.events?.objects() ?? [],
    }, { generation: wait.generation });
    return { status, gone: false };
  };
  const onChange = (): void => {
    if (!ready || signal.aborted) return;
    const { status, gone } = current();
    if (isNews(last, status)) {
      last = status;
      wait.onStatus?.(status);
    }
    const end = waitEnd(status, gone, until);
    if (end) settle({ end });
  };
  const handlers: FeedHandlers = { onChange, onFail: (error) => settle({ error }) };
  // Events only add detail to a summary: the wait goes on without them, as the status read does.
  const eventHandlers: FeedHandlers = { onChange, onFail: () => undefined };

  const timer = setTimeout(() => settle({ end: 'timeout' }), wait.timeoutMs);
  const onAbort = (): void => settle({ end: 'aborted' });
  wait.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    feeds = await openFeeds(watches, types, { namespace, name }, { handlers, eventHandlers }, signal);
    if (until === 'ready' && current().gone) throw agentNotFound(namespace, name);
    ready = true;
    if (wait.signal?.aborted) settle({ end: 'aborted' });
    onChange();
    const outcome = await settled;
    if ('error' in outcome) throw outcome.error;
    return { status: current().status, end: outcome.end, waitedSeconds: elapsedSeconds(started, now()) };
  } finally {
    clearTimeout(timer);
    wait.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

/** The feeds a wait folds: the Agent of each line, the release (where the Agent says it is too), workload, events. */
interface Feeds {
  agent: Feed; agentV2?: Feed; sameName: Feed; located?: Feed; deployment: Feed; pods: Feed; events?: Feed;
}

/** Opens the feeds of one agent, each after its first list; rejects when one the wait needs cannot be opened. */
async function openFeeds(
  watches: WatchPort, types: ResourceTypes, agentRef: { namespace: string; name: string },
  on: { handlers: FeedHandlers; eventHandlers: FeedHandlers }, signal: AbortSignal,
): Promise<Feeds> {
  const { namespace, name } = agentRef;
  const { handlers, eventHandlers } = on;
  const v2 = types.agentV2;
  const [agent, agentV2, sameName, deployment, pods, events] = await Promise.all([
    openFeed(watches, types.agent, namespace, byName(name), handlers, signal),
    // A cluster that does not serve api.kagent.dev has no 2.x Agent: the wait goes on without the feed.
    v2 ? openFeed(watches, v2, namespace, byName(name), handlers, signal).catch(() => undefined) : undefined,
    openFeed(watches, types.helmRelease, namespace, byName(name), handlers, signal),
    openFeed(watches, types.deployment, namespace, byName(name), handlers, signal),
    openFeed(watches, types.pod, namespace, { labelSelector: `kagent=${name}` }, handlers, signal),
    openFeed(watches, types.event, namespace, { fieldSelector: 'type=Warning' }, eventHandlers, signal).catch(() =>
      undefined),
  ]);
  const where = releaseLocation(first(agentV2) ?? first(agent), namespace, name);
  const located = where.name !== name || where.namespace !== namespace
    ? await openFeed(watches, types.helmRelease, where.namespace, byName(where.name), handlers, signal)
    : undefined;
  return { agent, agentV2, sameName, located, deployment, pods, events };
}

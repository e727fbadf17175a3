/**
 * One collection (a type, a namespace, selectors) kept current for the rollout waiter by
 * list + watch, as the request's identity: list, then watch from the list's
 * resourceVersion, so no change between the two is missed; every event updates the
 * objects and calls `onChange`.
 *
 * A watch that ends (the server's timeout, a dropped connection, 410 Gone because the
 * version is older than the server's history) is resumed by reading again: a fresh list
 * gives the current objects and a new resourceVersion to watch from. That is the only
 * re-read, so nothing is polled. Only a watch that ended within a second of starting, or
 * a failed list, waits before the next try (250 ms, doubling to 10 s), so a server that
 * refuses every watch is not hammered. A 401 or 403 is not retried: the identity may not
 * list or watch this, and `onFail` says so. Aborting `signal` stops the watch and any
 * retry; nothing is called after that.
 */
import { toAppError, type AppError } from '../../core/errors.js';
import type { Gvr, KubeObject, WatchPort, WatchSelectors } from '../ports.js';

export interface FeedHandlers {
  onChange(): void;
  /** The feed cannot go on; called at most once, never after `signal` aborted. */
  onFail(error: AppError): void;
}

/** The objects of a feed, current as of the last event. */
export interface Feed {
  objects(): KubeObject[];
}

const MAX_RETRY_MS = 10_000;
/** A watch that lived less than this before it ended counts as a failed try. */
const SHORT_WATCH_MS = 1000;

const denied = (error: AppError): boolean => error.code === 'forbidden' || error.code === 'unauthenticated';

/** Lists the collection (rejecting with that list's error) and keeps it current until `signal` aborts. */
export async function openFeed(
  port: WatchPort, gvr: Gvr, namespace: string, selectors: WatchSelectors, handlers: FeedHandlers, signal: AbortSignal,
): Promise<Feed> {
  const items = new Map<string, KubeObject>();
  let watch: { stop(): void } | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let failed = false;
  const over = (): boolean => signal.aborted || failed;
  const fail = (error: AppError): void => {
    if (over()) return;
    failed = true;
    handlers.onFail(error);
  };
  const fill = (list: KubeObject[]): void => {
    items.clear();
    for (const object of list) items.set(object.metadata.name, object);
  };

  const startWatch = async (resourceVersion: string): Promise<void> => {
    const started = Date.now();
    const handle = await port.watch(gvr, namespace, selectors, resourceVersion, {
      onEvent(type, object) {
        if (over() || type === 'BOOKMARK') return;
        if (type === 'DELETED') items.delete(object.metadata.name);
        else items.set(object.metadata.name, object);
        handlers.onChange();
      },
      onEnd(failure) {
        watch = undefined;
        if (over()) return;
        if (failure && (failure.status === 401 || failure.status === 403)) return fail(failure.error);
        failures = Date.now() - started < SHORT_WATCH_MS ? failures + 1 : 0;
        schedule();
      },
    });
    if (over()) handle.stop();
    else watch = handle;
  };

  const resume = async (): Promise<void> => {
    try {
      const list = await port.list(gvr, namespace, selectors);
      if (over()) return;
      fill(list.items);
      handlers.onChange();
      await startWatch(list.resourceVersion);
    } catch (err) {
      if (over()) return;
      const error = toAppError(err);
      if (denied(error)) return fail(error);
      failures++;
      schedule();
    }
  };

  const schedule = (): void => {
    const delay = failures === 0 ? 0 : Math.min(MAX_RETRY_MS, 250 * 2 ** (failures - 1));
    retry = setTimeout(() => void resume(), delay);
  };

  signal.addEventListener('abort', () => {
    clearTimeout(retry);
    watch?.stop();
    watch = undefined;
  }, { once: true });

  const first = await port.list(gvr, namespace, selectors);
  fill(first.items);
  if (!over()) await startWatch(first.resourceVersion);
  return { objects: () => [...items.values()] };
}

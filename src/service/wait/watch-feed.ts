/**
 * One collection kept current for the rollout waiter by list + watch as the request's identity: list,
 * then watch from its resourceVersion, so nothing between is missed. A watch that ends (timeout, drop,
 * 410 Gone) is resumed by listing again, the only re-read, so nothing is polled; only a watch that died
 * within a second, or a failed list, backs off (250 ms doubling to 10 s). A 401 or 403 is not retried
 * (`onFail` says so); aborting `signal` stops the watch and any retry.
 */
import { toAppError, type AppError } from '../../core/errors.js';
import type { Gvr, KubeObject, WatchEventHandlers, WatchPort, WatchSelectors } from '../ports.js';

type WatchEventType = Parameters<WatchEventHandlers['onEvent']>[0];

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

/** The wait before the next list after `failures` failed tries in a row: none at first, then doubling to 10 s. */
const retryDelayMs = (failures: number): number =>
  (failures === 0 ? 0 : Math.min(MAX_RETRY_MS, 250 * 2 ** (failures - 1)));

/** The feed's objects, by name, replaced by what a list answered. */
function fill(items: Map<string, KubeObject>, list: readonly KubeObject[]): void {
  items.clear();
  for (const object of list) items.set(object.metadata.name, object);
}

/** A watch event applied to the feed's objects; false for a bookmark, which changes none. */
function applyEvent(items: Map<string, KubeObject>, type: WatchEventType, object: KubeObject): boolean {
  if (type === 'BOOKMARK') return false;
  if (type === 'DELETED') items.delete(object.metadata.name);
  else items.set(object.metadata.name, object);
  return true;
}

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

  const startWatch = async (resourceVersion: string): Promise<void> => {
    const started = Date.now();
    const handle = await port.watch(gvr, namespace, selectors, resourceVersion, {
      onEvent(type, object) {
        if (!over() && applyEvent(items, type, object)) handlers.onChange();
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
      fill(items, list.items);
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
    retry = setTimeout(() => void resume(), retryDelayMs(failures));
  };

  signal.addEventListener('abort', () => {
    clearTimeout(retry);
    watch?.stop();
    watch = undefined;
  }, { once: true });

  const first = await port.list(gvr, namespace, selectors);
  fill(items, first.items);
  if (!over()) await startWatch(first.resourceVersion);
  return { objects: () => [...items.values()] };
}

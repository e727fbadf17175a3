/**
 * List and watch one resource type in one namespace, as the ServiceAccount: the two
 * calls a watch-fed cache is built from (what client-go's reflector does).
 *
 * - `list` answers the items and the list's resourceVersion, the point a watch resumes
 *   from without missing or repeating a change.
 * - `watch` streams the changes after a resourceVersion, with bookmarks allowed (so the
 *   resourceVersion keeps moving in a quiet namespace) and a server-side timeout (the
 *   API server ends the stream and the caller re-watches; client-go picks 5-10 minutes
 *   at random so replicas do not re-watch together). A stream that stays silent for
 *   longer than the timeout plus a margin is taken as dead and aborted: a half-open TCP
 *   connection would otherwise look like a quiet namespace forever.
 *
 * client-node's `Watch` also aborts a stream after 30 s without data (its
 * `requestTimeoutMs`). An API server sends bookmarks only about once a minute, so a quiet
 * namespace would see its watch torn down and restarted every 30 s. Our own silence
 * bound above is the one that decides; the library's is set beyond it.
 *
 * Objects are plain Kubernetes JSON. A 410 Gone (the resourceVersion is older than the
 * API server's watch history) reaches `onEnd` as an error whose `statusCode` is 410,
 * whether the API server answered the watch request with it or sent it as an ERROR event.
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { Gvr, KubeObject } from '../service/ports.js';
import { collectionPath, type KubeApis } from './api-clients.js';
import type { ListWatchSource, Selectors, WatchHandle, WatchHandlers } from './cache/ports.js';

/** An error carrying the HTTP status of a failed list or watch (410 means re-list). */
export class WatchError extends Error {
  constructor(message: string, readonly statusCode: number | undefined) {
    super(message);
    this.name = 'WatchError';
  }
}

/** The HTTP status of a list or watch failure, if it has one. */
export function watchStatus(err: unknown): number | undefined {
  const e = err as { statusCode?: unknown; code?: unknown } | null;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return typeof e?.code === 'number' ? e.code : undefined;
}

/** How long past the server-side timeout a silent stream is still taken as alive. */
const SILENCE_MARGIN_S = 30;

export interface ClientNodeListWatchOptions {
  /** Server-side watch timeout range in seconds; a value is picked at random per watch. Default 300-600. */
  watchTimeoutSeconds?: readonly [number, number];
}

/** List and watch over @kubernetes/client-node (the ServiceAccount's KubeConfig). */
export class ClientNodeListWatch implements ListWatchSource {
  private readonly watcher: Watch;
  private readonly timeoutRange: readonly [number, number];

  constructor(kc: KubeConfig, private readonly apis: KubeApis, options: ClientNodeListWatchOptions = {}) {
    this.watcher = new Watch(kc);
    this.timeoutRange = options.watchTimeoutSeconds ?? [300, 600];
    // `requestTimeoutMs` is private in the library's typings and has no setter or
    // constructor option (2.0.x); it is a plain field at run time. list-watch.test.ts
    // fails if an upgrade stops honouring it.
    (this.watcher as unknown as { requestTimeoutMs: number }).requestTimeoutMs = (this.timeoutRange[1] + SILENCE_MARGIN_S + 30) * 1000;
  }

  async list(gvr: Gvr, namespace: string, selectors: Selectors): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const { labelSelector, fieldSelector } = selectors;
    const { group, version, kind } = gvr;
    const list = (await this.apis.listObjects(gvr, namespace, { labelSelector, fieldSelector })) as {
      items?: unknown[]; metadata?: { resourceVersion?: string };
    };
    const apiVersion = group ? `${group}/${version}` : version;
    const items = (list.items ?? []).map((item) => {
      const obj = item as KubeObject;
      obj.apiVersion ??= apiVersion;
      obj.kind ??= kind;
      return obj;
    });
    return { items, resourceVersion: list.metadata?.resourceVersion ?? '' };
  }

  async watch(gvr: Gvr, namespace: string, selectors: Selectors, resourceVersion: string, handlers: WatchHandlers): Promise<WatchHandle> {
    const [low, high] = this.timeoutRange;
    const timeoutSeconds = Math.round(low + Math.random() * Math.max(0, high - low));
    let ended = false;
    let stopped = false;
    let silence: NodeJS.Timeout | undefined;
    let controller: AbortController | undefined = undefined;
    const end = (err?: unknown): void => {
      if (ended) return;
      ended = true;
      clearTimeout(silence);
      controller?.abort();
      handlers.onEnd(stopped ? undefined : err);
    };
    // Any line (event or bookmark) proves the stream alive; silence past the server's
    // own timeout plus a margin means the connection is dead.
    const alive = (): void => {
      clearTimeout(silence);
      silence = setTimeout(() => end(new WatchError(`watch ${gvr.resource}: no data for ${timeoutSeconds + SILENCE_MARGIN_S}s`, undefined)),
        (timeoutSeconds + SILENCE_MARGIN_S) * 1000);
      silence.unref();
    };
    alive();
    controller = await this.watcher.watch(collectionPath(gvr, namespace), {
      resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds,
      labelSelector: selectors.labelSelector,
      fieldSelector: selectors.fieldSelector,
    }, (type: string, object: unknown) => {
      if (ended) return;
      alive();
      if (type === 'ERROR') {
        const status = object as { code?: unknown; message?: unknown };
        end(new WatchError(`watch ${gvr.resource}: ${String(status.message ?? 'error event')}`,
          typeof status.code === 'number' ? status.code : undefined));
        return;
      }
      if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
        handlers.onEvent(type, object as KubeObject);
      }
    }, (err: unknown) => end(err ?? undefined));
    if (ended) controller.abort();
    return {
      stop() {
        stopped = true;
        end();
      },
    };
  }
}

/**
 * List and watch one resource type in one namespace as the ServiceAccount, what client-go's reflector
 * builds on: `list` gives items and the resourceVersion to resume from; `watch` streams changes with
 * bookmarks and a randomized server-side timeout (5-10 minutes, so replicas do not re-watch together).
 * A stream silent past that timeout plus a margin is aborted as dead (a half-open TCP connection looks
 * quiet forever); client-node's own 30 s silence bound is set beyond ours, since bookmarks come about
 * once a minute. A 410 Gone reaches `onEnd` as `statusCode` 410, whether answered or sent as an ERROR event.
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { Gvr, KubeObject } from '../service/ports.js';
import { collectionPath, type KubeApis } from './api-clients.js';
import { asList, asObject, stringOr } from '../core/json.js';
import { kubeObjectOf } from './kube-json.js';
import type { ListWatchSource, Selectors, WatchHandle, WatchHandlers } from './cache/cache-ports.js';

/** An error carrying the HTTP status of a failed list or watch (410 means re-list). */
export class WatchError extends Error {
  constructor(message: string, readonly statusCode: number | undefined) {
    super(message);
    this.name = 'WatchError';
  }
}

/** The HTTP status of a list or watch failure, if it has one. */
export function watchStatus(err: unknown): number | undefined {
  const e = asObject(err);
  if (typeof e.statusCode === 'number') return e.statusCode;
  return typeof e.code === 'number' ? e.code : undefined;
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
    // constructor option (2.0.x); it is a plain field at run time. list-watch.int.test.ts
    // fails if an upgrade stops honouring it.
    (this.watcher as unknown as { requestTimeoutMs: number }).requestTimeoutMs =
      (this.timeoutRange[1] + SILENCE_MARGIN_S + 30) * 1000;
  }

  async list(
    gvr: Gvr, namespace: string, selectors: Selectors,
  ): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const { labelSelector, fieldSelector } = selectors;
    const list = asObject(await this.apis.listObjects(gvr, namespace, { labelSelector, fieldSelector }));
    // An item without metadata.name (no API server sends one) is left out rather than failing the list.
    const items = asList(list.items).flatMap((item) => kubeObjectOf(item, gvr) ?? []);
    return { items, resourceVersion: stringOr(asObject(list.metadata).resourceVersion, '') };
  }

  async watch(
    gvr: Gvr, namespace: string, selectors: Selectors, resourceVersion: string, handlers: WatchHandlers,
  ): Promise<WatchHandle> {
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
      silence = setTimeout(() =>
        end(new WatchError(`watch ${gvr.resource}: no data for ${timeoutSeconds + SILENCE_MARGIN_S}s`, undefined)),
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
        const status = asObject(object);
        end(new WatchError(`watch ${gvr.resource}: ${String(status.message ?? 'error event')}`,
          typeof status.code === 'number' ? status.code : undefined));
        return;
      }
      if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
        // safe: the watched resource's JSON as the API server sent it; a BOOKMARK carries only
        // metadata.resourceVersion, the one field its readers read.
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

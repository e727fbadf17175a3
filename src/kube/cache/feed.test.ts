import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../service/ports.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../service/resources.js';
import { silentLogger } from '../../log/logger.js';
import { WatchError } from '../list-watch.js';
import type { FeedSpec, ListWatchSource, Selectors, WatchEventType, WatchHandlers } from './cache-ports.js';
import type { Gvr } from '../../service/ports.js';
import { eventually } from '../../../test/support/eventually.js';
import { compareRv, Feed } from './feed.js';
import { ReadCache } from './read-cache.js';

const types = resourceTypes(DEFAULT_API_VERSIONS);
const release = (name: string, rv: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
  metadata: { name, namespace: 'kagent', resourceVersion: rv, managedFields: [{ manager: 'x' }], ...extra },
});

/** A list+watch source the test drives by hand: what the API server would stream, when it would. */
class HandSource implements ListWatchSource {
  items: KubeObject[] = [];
  rv = '1';
  lists = 0;
  watches: { spec: FeedSpec; rv: string; handlers: WatchHandlers }[] = [];
  failWatch?: unknown;

  async list(gvr: Gvr, _namespace: string, _selectors: Selectors) {
    this.lists++;
    return { items: gvr.resource === 'helmreleases' ? this.items : [], resourceVersion: this.rv };
  }

  /** Send an event on the open release watches only. */
  toReleases(type: WatchEventType, object: KubeObject): void {
    for (const w of this.watches) if (w.spec.gvr.resource === 'helmreleases') w.handlers.onEvent(type, object);
  }

  async watch(gvr: Gvr, namespace: string, _selectors: Selectors, rv: string, handlers: WatchHandlers) {
    if (this.failWatch) throw this.failWatch;
    this.watches.push({ spec: { gvr, namespace }, rv, handlers });
    return { stop: () => handlers.onEnd() };
  }

  get current(): WatchHandlers {
    return this.watches.at(-1)!.handlers;
  }

  emit(type: WatchEventType, object: KubeObject): void {
    this.current.onEvent(type, object);
  }
}

const newFeed = (source: HandSource, options: ConstructorParameters<typeof Feed>[2]) => new Feed({ gvr: types.helmRelease, namespace: 'kagent' }, {
  list: () => source.list(types.helmRelease, 'kagent', {}),
  watch: (rv, handlers) => source.watch(types.helmRelease, 'kagent', {}, rv, handlers),
}, options);

const until = async (probe: () => boolean): Promise<void> => {
  await eventually(() => probe() || undefined, 2_000, 'the feed to catch up');
};

describe('a watch-fed store', () => {
  it('compares resourceVersions as the decimal integers etcd gives, and refuses to order anything else', () => {
    expect(compareRv('10', '9')).toBe(1);
    expect(compareRv('9', '10')).toBe(-1);
    expect(compareRv('42', '42')).toBe(0);
    expect(compareRv('a1', '2')).toBeUndefined();
  });

  it('serves nothing before its first list, then frozen objects without managedFields, sorted by name', async () => {
    const source = new HandSource();
    source.items = [release('b', '3'), release('a', '2')];
    const feed = newFeed(source, { staleAfterMs: 1_000, maxObjects: 10 });
    expect(feed.state()).toBe('syncing');
    feed.start();
    await until(() => feed.fresh() && source.watches.length === 1);
    expect(feed.items().map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(feed.get('a')!.metadata.managedFields).toBeUndefined();
    expect(() => { (feed.get('a')!.metadata as { name: string }).name = 'z'; }).toThrow(TypeError);
    expect(source.watches[0]!.rv).toBe('1');
    feed.stop();
  });

  it('applies events, moves its resourceVersion with bookmarks, and re-watches from there after a normal end', async () => {
    const source = new HandSource();
    const feed = newFeed(source, { staleAfterMs: 1_000, maxObjects: 10 });
    feed.start();
    await until(() => source.watches.length === 1);
    source.emit('ADDED', release('a', '5'));
    source.emit('BOOKMARK', { apiVersion: 'v1', kind: 'HelmRelease', metadata: { name: '', resourceVersion: '9' } });
    expect(feed.get('a')?.metadata.resourceVersion).toBe('5');
    expect(feed.resourceVersion).toBe('9');
    source.emit('DELETED', release('a', '10'));
    expect(feed.get('a')).toBeUndefined();
    source.current.onEnd();
    await until(() => source.watches.length === 2);
    expect(source.watches[1]!.rv).toBe('10');
    expect(source.lists).toBe(1);
    feed.stop();
  });

  it('re-lists when the watch ends with 410 Gone, whether as an ERROR event or as the answer to the watch', async () => {
    const source = new HandSource();
    const feed = newFeed(source, { staleAfterMs: 1_000, maxObjects: 10 });
    feed.start();
    await until(() => source.watches.length === 1);
    source.items = [release('after-gap', '50')];
    source.rv = '50';
    source.current.onEnd(new WatchError('too old resource version', 410));
    await until(() => source.lists === 2 && source.watches.length === 2);
    expect(feed.get('after-gap')).toBeDefined();
    expect(source.watches[1]!.rv).toBe('50');
    expect(feed.relists).toBe(1);
    feed.stop();
  });

  it('goes stale once its watch has been down longer than the bound, and serves again when it is back', async () => {
    let now = 0;
    const source = new HandSource();
    const feed = newFeed(source, { staleAfterMs: 100, maxObjects: 10, now: () => now });
    feed.start();
    await until(() => source.watches.length === 1);
    source.failWatch = new WatchError('connection refused', undefined);
    source.current.onEnd(new WatchError('connection reset', undefined));
    now = 50;
    expect(feed.state()).toBe('synced');
    now = 150;
    expect(feed.state()).toBe('stale');
    source.failWatch = undefined;
    await until(() => source.watches.length === 2);
    expect(feed.state()).toBe('synced');
    feed.stop();
  });

  it('stops serving rather than grow past its bound', async () => {
    const source = new HandSource();
    source.items = [release('a', '2'), release('b', '3'), release('c', '4')];
    const feed = newFeed(source, { staleAfterMs: 1_000, maxObjects: 2 });
    feed.start();
    await until(() => feed.state() === 'overflow');
    expect(feed.fresh()).toBe(false);
    expect(feed.size).toBe(0);
    feed.stop();
  });
});

describe('read-your-writes', () => {
  const cacheWith = (source: HandSource, readYourWritesMs: number) => new ReadCache({
    namespaces: ['kagent'], types, source, log: silentLogger(), readYourWritesMs,
  });

  it('a read after this replica wrote waits until the watch has passed the write, then answers from the store', async () => {
    const source = new HandSource();
    const cache = cacheWith(source, 5_000);
    cache.start();
    expect(await cache.synced(2_000)).toBe(true);
    cache.noteWrite(types.helmRelease, 'kagent', 'new', '7');
    let answered = false;
    const read = cache.forList(types.helmRelease, 'kagent').then((found) => {
      answered = true;
      return found;
    });
    // Nothing but the watch event can answer it before its 5 s bound: after a turn of the
    // event loop (every pending I/O and timer callback due now) it is still waiting.
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    source.toReleases('ADDED', release('new', '7'));
    const found = await read;
    expect(found?.feed.items().map((o) => o.metadata.name)).toEqual(['new']);
    cache.stop();
  });

  it('a read goes to the API server when the watch has not caught up within the bound', async () => {
    const source = new HandSource();
    const cache = cacheWith(source, 30);
    cache.start();
    expect(await cache.synced(2_000)).toBe(true);
    cache.noteWrite(types.helmRelease, 'kagent', 'new', '7');
    expect(await cache.forGet(types.helmRelease, 'kagent')).toBeUndefined();
    // Other types are not held back by that write.
    expect(await cache.forGet(types.agent, 'kagent')).toBeDefined();
    cache.stop();
  });

  it('a read after a delete waits until the object is gone from the store', async () => {
    const source = new HandSource();
    source.items = [release('old', '3')];
    const cache = cacheWith(source, 5_000);
    cache.start();
    expect(await cache.synced(2_000)).toBe(true);
    cache.noteWrite(types.helmRelease, 'kagent', 'old', undefined);
    const read = cache.forGet(types.helmRelease, 'kagent');
    source.toReleases('DELETED', release('old', '8'));
    const feed = await read;
    expect(feed?.get('old')).toBeUndefined();
    cache.stop();
  });
});

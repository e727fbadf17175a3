/**
 * The object store and its watch hub: key order across namespaces, paging after a key,
 * frozen snapshots, one global resourceVersion, and bounded history.
 */
import { describe, expect, it } from 'vitest';
import { configmaps, namespaces } from '../resources/builtin-core.js';
import { ObjectStore } from './object-store.js';

const cm = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name } });

describe('ObjectStore', () => {
  it('lists in key order and separates namespaces that share a prefix', () => {
    const store = new ObjectStore();
    for (const [ns, name] of [['a-b', 'z'], ['a', 'y'], ['a', 'x'], ['ab', 'w']]) store.put(configmaps, cm(ns!, name!), 'ADDED');
    expect(store.list(configmaps, '').map(([k]) => k)).toEqual(['a-b/z', 'a/x', 'a/y', 'ab/w']);
    expect(store.list(configmaps, 'a').map(([k]) => k)).toEqual(['a/x', 'a/y']);
    expect(store.list(configmaps, 'a', 'a/x').map(([k]) => k)).toEqual(['a/y']);
  });

  it('stamps one increasing resourceVersion across resources and freezes what it stores', () => {
    const store = new ObjectStore();
    const a = store.put(namespaces, { metadata: { name: 'n' } }, 'ADDED');
    const b = store.put(configmaps, cm('n', 'c'), 'ADDED');
    expect([a.metadata, b.metadata].map((m: any) => m.resourceVersion)).toEqual(['1', '2']);
    expect(Object.isFrozen((b as any).metadata)).toBe(true);
    const gone = store.remove(configmaps, b);
    expect((gone as any).metadata.resourceVersion).toBe('3');
    expect(store.get(configmaps, 'n', 'c')).toBeUndefined();
  });

  it('replays events after a resourceVersion and expires what fell out of history', () => {
    const store = new ObjectStore(3);
    for (const name of ['a', 'b', 'c', 'd', 'e']) store.put(configmaps, cm('n', name), 'ADDED');
    expect(store.hub.replay('configmaps', 3)).not.toBe('expired');
    expect((store.hub.replay('configmaps', 3) as any[]).map((e) => e.rv)).toEqual([4, 5]);
    expect(store.hub.replay('configmaps', 1)).toBe('expired');
    expect(store.hub.replay('pods', 4)).toEqual([]);
  });

  it('keeps listing 2,000 objects cheap enough to do per request', () => {
    const store = new ObjectStore();
    for (let i = 0; i < 2000; i++) store.put(configmaps, cm(`ns-${i % 10}`, `cm-${i}`), 'ADDED');
    expect(store.list(configmaps, '')).toHaveLength(2000);
    expect(store.list(configmaps, 'ns-3')).toHaveLength(200);
  });
});

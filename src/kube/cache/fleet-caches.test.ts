import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import { ClusterReadCaches, clusterReadCaches } from './fleet-caches.js';
import type { OpenedReadCache } from './open.js';

/** A stand-in for one cluster's opened cache: it records whether it was closed. */
function opener(log: string[]) {
  return (key: string) => () => {
    log.push(`open ${key}`);
    return { kube: {}, cache: { reads: { cache: 1, api: 2 } }, close: () => log.push(`close ${key}`) } as unknown as OpenedReadCache;
  };
}

function caches(max: number, quietMs = 1_000) {
  let now = 0;
  const events: string[] = [];
  const c = new ClusterReadCaches({ max, quietMs, now: () => now, log: silentLogger() });
  return { c, events, open: opener(events), advance: (ms: number) => (now += ms) };
}

describe('the workload clusters\' read caches', () => {
  it('start a cluster\'s cache on its first read and reuse it on the next', () => {
    const { c, events, open } = caches(2);
    const first = c.use('acme/alpha', open('acme/alpha'));
    expect(c.use('acme/alpha', open('acme/alpha'))).toBe(first);
    expect(events).toEqual(['open acme/alpha']);
    expect(c.starts).toBe(1);
    c.close();
  });

  it('stop a cluster not read for the quiet period, and only that one', () => {
    const { c, events, open, advance } = caches(2, 1_000);
    c.use('acme/alpha', open('acme/alpha'));
    advance(600);
    c.use('acme/beta', open('acme/beta'));
    advance(500);
    c.sweep();
    expect(c.clusters()).toEqual(['acme/beta']);
    expect(events).toContain('close acme/alpha');
    expect(c.stops.quiet).toBe(1);
    c.close();
  });

  it('evict the least recently read cluster beyond the bound', () => {
    const { c, events, open, advance } = caches(2);
    c.use('acme/alpha', open('acme/alpha'));
    advance(1);
    c.use('acme/beta', open('acme/beta'));
    advance(1);
    c.use('acme/alpha', open('acme/alpha'));
    c.use('acme/gamma', open('acme/gamma'));
    expect(c.clusters()).toEqual(['acme/alpha', 'acme/gamma']);
    expect(events).toContain('close acme/beta');
    expect(c.stops.evicted).toBe(1);
    c.close();
  });

  it('keep the reads of stopped clusters in their totals', () => {
    const { c, open } = caches(1);
    c.use('acme/alpha', open('acme/alpha'));
    c.drop('acme/alpha', 'kubeconfig changed');
    c.use('acme/beta', open('acme/beta'));
    expect(c.reads()).toEqual({ cache: 2, api: 4 });
    expect(c.stops['kubeconfig changed']).toBe(1);
    c.close();
  });

  it('cache nothing with a bound of 0', () => {
    const { c, events, open } = caches(0);
    expect(c.use('acme/alpha', open('acme/alpha'))).toBeUndefined();
    expect(events).toEqual([]);
  });
});

describe('which services cache workload clusters', () => {
  const log = silentLogger();
  it('one with the read cache on and the ServiceAccount identity does, bounded by --read-cache-clusters', () => {
    expect(clusterReadCaches({ readCache: true, max: 50, identity: 'serviceAccount', log })?.max).toBe(50);
  });

  it('none with downstream OAuth, with the read cache off, or with a bound of 0', () => {
    expect(clusterReadCaches({ readCache: true, max: 50, identity: 'caller', log })).toBeUndefined();
    expect(clusterReadCaches({ readCache: false, max: 50, identity: 'serviceAccount', log })).toBeUndefined();
    expect(clusterReadCaches({ readCache: true, max: 0, identity: 'serviceAccount', log })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import type { KubeObject, KubePort, KubeProvider } from '../../service/ports.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../service/resources.js';
import { CachedKubeProvider } from './cached-provider.js';
import type { ListWatchSource } from './cache-ports.js';
import { ReadCache } from './read-cache.js';

const types = resourceTypes(DEFAULT_API_VERSIONS);
const ctx = { requestId: 't', log: silentLogger() };
const release: KubeObject = { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'a', namespace: 'kagent', resourceVersion: '9' } };

/** A port that records what it was asked, with which options. */
function recordingProvider(calls: unknown[][]): KubeProvider {
  const port: KubePort = {
    get: async (...args) => (calls.push(['get', ...args]), undefined),
    list: async (...args) => (calls.push(['list', ...args]), []),
    create: async (...args) => (calls.push(['create', ...args]), release),
    replace: async (...args) => (calls.push(['replace', ...args]), release),
    remove: async (...args) => (calls.push(['remove', ...args]), true),
  };
  return { identity: 'serviceAccount', forRequest: () => port };
}

const never: ListWatchSource = {
  list: () => new Promise(() => undefined),
  watch: () => new Promise(() => undefined),
};

describe('the cached provider', () => {
  it('hands every write and its options (dry run, preconditions) to the API server unchanged', async () => {
    const calls: unknown[][] = [];
    const cache = new ReadCache({ namespaces: ['kagent'], types, source: never, log: silentLogger() });
    const kube = new CachedKubeProvider(recordingProvider(calls), cache).forRequest(ctx);
    await kube.create(types.helmRelease, release, { dryRun: true });
    await kube.replace(types.helmRelease, release, { dryRun: true });
    await kube.remove(types.helmRelease, 'kagent', 'a', { dryRun: true, resourceVersion: '9' });
    expect(calls).toEqual([
      ['create', types.helmRelease, release, { dryRun: true }],
      ['replace', types.helmRelease, release, { dryRun: true }],
      ['remove', types.helmRelease, 'kagent', 'a', { dryRun: true, resourceVersion: '9' }],
    ]);
  });

  it('reads from the API server while the cache has not listed', async () => {
    const calls: unknown[][] = [];
    const cache = new ReadCache({ namespaces: ['kagent'], types, source: never, log: silentLogger() });
    const reads = new CachedKubeProvider(recordingProvider(calls), cache).forReads(ctx);
    await reads.list(types.helmRelease, 'kagent');
    await reads.get(types.agent, 'kagent', 'a');
    expect(calls.map((c) => c[0])).toEqual(['list', 'get']);
    expect(cache.reads).toEqual({ cache: 0, api: 2 });
  });
});

/**
 * Starting the read cache for `serve`: one ClientNodeListWatch as the ServiceAccount
 * (the base kubeconfig), the stores of every managed namespace, and the provider that
 * puts them in front of the reads. With the caller's identity every cached read is
 * first authorized as that caller (SelfSubjectAccessReview, answers reused ≤ 30 s).
 * The stores' own lists and watches run through the same hooks as every other Kubernetes
 * call, so they are counted, timed and traced alike.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { KubeProvider } from '../../service/ports.js';
import type { ResourceTypes } from '../../service/resources.js';
import { makeKubeApis } from '../api-clients.js';
import { instrumentKube, type KubeCallHook } from '../instrumented.js';
import { ClientNodeListWatch } from '../list-watch.js';
import { cachedReadAuthorizer } from './review-cache.js';
import { CachedKubeProvider } from './cached-provider.js';
import type { ReadAuthorizer } from './cache-ports.js';
import { ReadCache, type ReadCacheOptions } from './read-cache.js';

export interface OpenReadCacheOptions {
  /** The ServiceAccount's cluster access: the cache is filled with it. */
  cluster: KubeConfig;
  namespaces: readonly string[];
  types: ResourceTypes;
  log: Logger;
  /** With the caller's identity: one SelfSubjectAccessReview as the caller. */
  review?: ReadAuthorizer;
  /** Run around each list and watch of the stores (metrics, tracing). */
  hooks?: readonly KubeCallHook[];
  /** Only the stores of these types (default: every type the reads use). */
  kinds?: ReadCacheOptions['kinds'];
}

export interface OpenedReadCache {
  kube: CachedKubeProvider;
  cache: ReadCache;
  close(): void;
}

export function openReadCache(inner: KubeProvider, options: OpenReadCacheOptions): OpenedReadCache {
  const apis = makeKubeApis(options.cluster);
  const cache = new ReadCache({
    namespaces: options.namespaces,
    types: options.types,
    source: instrumentKube(new ClientNodeListWatch(options.cluster, apis), options.hooks ?? []),
    log: options.log,
    kinds: options.kinds,
  });
  cache.start();
  const authorize = options.review ? cachedReadAuthorizer(options.review) : undefined;
  if (inner.identity === 'caller' && !authorize) throw new Error('a read cache for callers needs an access review');
  return {
    kube: new CachedKubeProvider(inner, cache, authorize),
    cache,
    close() {
      cache.stop();
      apis.close();
    },
  };
}

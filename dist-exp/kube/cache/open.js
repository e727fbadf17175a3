import { makeKubeApis } from '../api-clients.js';
import { instrumentKube } from '../instrumented.js';
import { ClientNodeListWatch } from '../list-watch.js';
import { cachedReadAuthorizer } from './access-review.js';
import { CachedKubeProvider } from './cached-provider.js';
import { ReadCache } from './read-cache.js';
export function openReadCache(inner, options) {
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
    if (inner.identity === 'caller' && !authorize)
        throw new Error('a read cache for callers needs an access review');
    return {
        kube: new CachedKubeProvider(inner, cache, authorize),
        cache,
        close() {
            cache.stop();
            apis.close();
        },
    };
}
//# sourceMappingURL=open.js.map
/**
 * The OCI half of skill pinning: the digest a skill image's tag points at, through the
 * project's registry client (token dance, timeouts, body caps; plain HTTP only on loopback).
 * The chart registry's credentials go to that registry (same host and port) only; any other
 * is asked anonymously, so a skill reference can never send them elsewhere. One client per
 * repository is kept (bounded), so its tokens serve the next write. The registry saying no
 * (404, 401, 403) is the caller's to fix: 400; not answering or failing (5xx): 502.
 */
import { isLoopbackRegistry } from '../chart/oci-reference.js';
import { RegistryClient, RegistryHttpError } from '../chart/registry-client.js';
import { backendError, invalid } from '../core/errors.js';
const MAX_CLIENTS = 64;
export class OciDigestResolver {
    options;
    clients = new Map();
    constructor(options = {}) {
        this.options = options;
    }
    async ociDigest(reference, signal) {
        const name = `${reference.registry}/${reference.repository}`;
        try {
            return await this.client(reference.registry, reference.repository).manifestDigest(reference.tag, signal);
        }
        catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            const status = err instanceof RegistryHttpError ? err.status : undefined;
            if (status === 404 || status === 401 || status === 403) {
                const why = status === 404 ? `the registry has no tag ${reference.tag} there (HTTP 404)` : message;
                throw invalid(`unresolvable skill reference: tag ${reference.tag} of ${name} could not be resolved: ${why}`, err);
            }
            throw backendError(`resolving tag ${reference.tag} of ${name}: ${message}`, err);
        }
    }
    client(registry, repository) {
        const key = `${registry}/${repository}`;
        let client = this.clients.get(key);
        if (client) {
            this.clients.delete(key);
        }
        else {
            const ref = {
                url: `oci://${key}`, registry, repository,
                chartName: repository.slice(repository.lastIndexOf('/') + 1),
                baseUrl: `${isLoopbackRegistry(registry) ? 'http' : 'https'}://${registry}`,
            };
            const credentials = this.options.credentials?.registry.toLowerCase() === registry.toLowerCase()
                ? this.options.credentials.source
                : undefined;
            client = new RegistryClient(ref, {
                fetch: this.options.fetch, credentials, requestTimeoutMs: this.options.requestTimeoutMs,
            });
        }
        this.clients.set(key, client);
        for (const oldest of this.clients.keys()) {
            if (this.clients.size <= MAX_CLIENTS)
                break;
            this.clients.delete(oldest);
        }
        return client;
    }
}
//# sourceMappingURL=oci-digest-resolver.js.map
/**
 * Which identity a request's Kubernetes calls run under: `ServiceAccountProvider`, one shared client;
 * `CallerProvider`, a client per caller token so the person's RBAC decides. Trust model: no fallback to
 * the ServiceAccount; no token is 401, an expired one is still presented so the API server's 401 fails
 * the request as the caller's. Clients are cached by sha256(token) until its `exp` (read unverified; the
 * API server verifies), at most 256, expired ones evicted first.
 */
import { createHash } from 'node:crypto';
import { unauthenticated } from '../core/errors.js';
import { makeKubeApis } from './api-clients.js';
import { ClientNodeAccessReviewer } from './access-review.js';
import { ClientNodeKube } from './client-node-kube.js';
import { kubeConfigForToken } from './kubeconfig.js';
import { ClientNodeWatches } from './watches.js';
import { selfReview, subjectReview } from './write-review.js';
export const NO_CALLER_TOKEN = 'the request carries no identity token to act with: no caller token on the request';
/** One shared client: every request acts as the pod's ServiceAccount. */
export class ServiceAccountProvider {
    identity = 'serviceAccount';
    apis;
    port;
    watches;
    constructor(base) {
        this.apis = makeKubeApis(base);
        this.port = new ClientNodeKube(this.apis);
        this.watches = new ClientNodeWatches(base, this.apis);
    }
    forRequest(_ctx) {
        return this.port;
    }
    forWatches(_ctx) {
        return this.watches;
    }
    /** A SubjectAccessReview about the request's caller (none without one: there is nobody to ask about). */
    async reviewAccess(ctx, attributes) {
        const user = ctx.caller?.email || ctx.caller?.subject;
        if (!user)
            throw unauthenticated('the request names no caller to ask Kubernetes about');
        return subjectReview(this.apis, user, ctx.caller.groups, attributes);
    }
    close() {
        this.apis.close();
    }
}
/** The `exp` of a JWT in epoch ms, read without verification; undefined when unreadable. */
export function tokenExpiry(token) {
    const parts = token.split('.');
    if (parts.length !== 3)
        return undefined;
    try {
        const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
        return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : undefined;
    }
    catch {
        return undefined;
    }
}
/** A client per caller token, built from the base cluster's address and CA only. */
export class CallerProvider {
    base;
    options;
    identity = 'caller';
    cache = new Map();
    expiredLogged = new Set();
    now;
    maxEntries;
    constructor(base, options) {
        this.base = base;
        this.options = options;
        this.now = options.now ?? Date.now;
        this.maxEntries = options.maxEntries ?? 256;
    }
    /** How many clients are cached (tests). */
    get size() {
        return this.cache.size;
    }
    forRequest(ctx) {
        return this.entryFor(ctx).port;
    }
    /** Watches that present the caller's token, as every other call of the request does. */
    forWatches(ctx) {
        return this.entryFor(ctx).watches;
    }
    /**
     * Ask the API server, as the caller, whether the caller may make a read
     * (a SelfSubjectAccessReview): what the read cache asks before it answers them.
     */
    async mayRead(ctx, attributes) {
        return new ClientNodeAccessReviewer(this.entryFor(ctx).apis).mayRead(attributes);
    }
    /** A SelfSubjectAccessReview with the caller's own token. */
    async reviewAccess(ctx, attributes) {
        return selfReview(this.entryFor(ctx).apis, attributes);
    }
    entryFor(ctx) {
        const token = ctx.token;
        if (!token)
            throw unauthenticated(NO_CALLER_TOKEN);
        const key = createHash('sha256').update(token).digest('hex');
        const now = this.now();
        const cached = this.cache.get(key);
        const entry = cached ?? this.build(token);
        if (entry.expiresAt !== undefined && entry.expiresAt <= now)
            this.logExpired(ctx, key);
        if (!cached) {
            this.makeRoom(now);
            this.cache.set(key, entry);
        }
        return entry;
    }
    /** Once per token: an expired token is still presented, so the API server's 401 decides. */
    logExpired(ctx, key) {
        if (this.expiredLogged.has(key))
            return;
        if (this.expiredLogged.size >= this.maxEntries)
            this.expiredLogged.clear();
        this.expiredLogged.add(key);
        // The request's logger binds its id already (each key once per line); a bare context gets it here.
        ctx.log.warn(Object.hasOwn(ctx.log.bindings(), 'requestId') ? {} : { requestId: ctx.requestId }, 'caller token expired; presenting it so the API server decides');
    }
    build(token) {
        const kc = kubeConfigForToken(this.base, token);
        const apis = makeKubeApis(kc);
        return {
            apis, port: new ClientNodeKube(apis), watches: new ClientNodeWatches(kc, apis), expiresAt: tokenExpiry(token),
        };
    }
    makeRoom(now) {
        if (this.cache.size < this.maxEntries)
            return;
        for (const [key, entry] of this.cache) {
            if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
                this.cache.delete(key);
                entry.apis.close();
            }
        }
        if (this.cache.size < this.maxEntries)
            return;
        for (const entry of this.cache.values())
            entry.apis.close();
        this.cache.clear();
        this.options.log.debug('caller client cache full; cleared');
    }
    close() {
        for (const entry of this.cache.values())
            entry.apis.close();
        this.cache.clear();
    }
}
//# sourceMappingURL=providers.js.map
/**
 * Which identity a request's Kubernetes calls run under: `ServiceAccountProvider`, one shared client;
 * `CallerProvider`, a client per caller token so the person's RBAC decides. Trust model: no fallback to
 * the ServiceAccount; no token is 401, an expired one is still presented so the API server's 401 fails
 * the request as the caller's. Clients are cached by sha256(token) until its `exp` (read unverified; the
 * API server verifies), at most 256, expired ones evicted first.
 */
import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { unauthenticated } from '../core/errors.js';
import type { RequestContext } from '../identity/caller.js';
import type { AccessAttributes, AccessDecision, KubePort, KubeProvider, WatchPort } from '../service/ports.js';
import { makeKubeApis, type KubeApis } from './api-clients.js';
import { ClientNodeAccessReviewer } from './access-review.js';
import type { ReadAttributes } from './cache/cache-ports.js';
import { ClientNodeKube } from './client-node-kube.js';
import { kubeConfigForToken } from './kubeconfig.js';
import { ClientNodeWatches } from './watches.js';
import { selfReview, subjectReview } from './write-review.js';
import { asObject } from '../core/json.js';

export const NO_CALLER_TOKEN = 'the request carries no identity token to act with: no caller token on the request';

/** One shared client: every request acts as the pod's ServiceAccount. */
export class ServiceAccountProvider implements KubeProvider {
  readonly identity = 'serviceAccount' as const;
  private readonly apis: KubeApis;
  private readonly port: KubePort;
  private readonly watches: WatchPort;

  constructor(base: KubeConfig) {
    this.apis = makeKubeApis(base);
    this.port = new ClientNodeKube(this.apis);
    this.watches = new ClientNodeWatches(base, this.apis);
  }

  forRequest(_ctx: RequestContext): KubePort {
    return this.port;
  }

  forWatches(_ctx: RequestContext): WatchPort {
    return this.watches;
  }

  /** A SubjectAccessReview about the request's caller (none without one: there is nobody to ask about). */
  async reviewAccess(ctx: RequestContext, attributes: AccessAttributes): Promise<AccessDecision> {
    const user = ctx.caller?.email || ctx.caller?.subject;
    if (!user) throw unauthenticated('the request names no caller to ask Kubernetes about');
    return subjectReview(this.apis, user, ctx.caller!.groups, attributes);
  }

  close(): void {
    this.apis.close();
  }
}

interface Entry {
  port: KubePort;
  /** List and watch with the same token (the rollout waiter). */
  watches: WatchPort;
  apis: KubeApis;
  /** Epoch ms of the token's exp; undefined for opaque tokens or tokens without exp. */
  expiresAt?: number;
}

/** The `exp` of a JWT in epoch ms, read without verification; undefined when unreadable. */
export function tokenExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = asObject(JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')));
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export interface CallerProviderOptions {
  log: Logger;
  now?: () => number;
  maxEntries?: number;
}

/** A client per caller token, built from the base cluster's address and CA only. */
export class CallerProvider implements KubeProvider {
  readonly identity = 'caller' as const;
  private readonly cache = new Map<string, Entry>();
  private readonly expiredLogged = new Set<string>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly base: KubeConfig, private readonly options: CallerProviderOptions) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 256;
  }

  /** How many clients are cached (tests). */
  get size(): number {
    return this.cache.size;
  }

  forRequest(ctx: RequestContext): KubePort {
    return this.entryFor(ctx).port;
  }

  /** Watches that present the caller's token, as every other call of the request does. */
  forWatches(ctx: RequestContext): WatchPort {
    return this.entryFor(ctx).watches;
  }

  /**
   * Ask the API server, as the caller, whether the caller may make a read
   * (a SelfSubjectAccessReview): what the read cache asks before it answers them.
   */
  async mayRead(ctx: RequestContext, attributes: ReadAttributes): Promise<boolean> {
    return new ClientNodeAccessReviewer(this.entryFor(ctx).apis).mayRead(attributes);
  }

  /** A SelfSubjectAccessReview with the caller's own token. */
  async reviewAccess(ctx: RequestContext, attributes: AccessAttributes): Promise<AccessDecision> {
    return selfReview(this.entryFor(ctx).apis, attributes);
  }

  private entryFor(ctx: RequestContext): Entry {
    const token = ctx.token;
    if (!token) throw unauthenticated(NO_CALLER_TOKEN);
    const key = createHash('sha256').update(token).digest('hex');
    const now = this.now();
    const cached = this.cache.get(key);
    const entry = cached ?? this.build(token);
    if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.logExpired(ctx, key);
    if (!cached) {
      this.makeRoom(now);
      this.cache.set(key, entry);
    }
    return entry;
  }

  /** Once per token: an expired token is still presented, so the API server's 401 decides. */
  private logExpired(ctx: RequestContext, key: string): void {
    if (this.expiredLogged.has(key)) return;
    if (this.expiredLogged.size >= this.maxEntries) this.expiredLogged.clear();
    this.expiredLogged.add(key);
    // The request's logger binds its id already (each key once per line); a bare context gets it here.
    ctx.log.warn(Object.hasOwn(ctx.log.bindings(), 'requestId') ? {} : { requestId: ctx.requestId },
      'caller token expired; presenting it so the API server decides');
  }

  private build(token: string): Entry {
    const kc = kubeConfigForToken(this.base, token);
    const apis = makeKubeApis(kc);
    return {
      apis, port: new ClientNodeKube(apis), watches: new ClientNodeWatches(kc, apis), expiresAt: tokenExpiry(token),
    };
  }

  private makeRoom(now: number): void {
    if (this.cache.size < this.maxEntries) return;
    for (const [key, entry] of this.cache) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
        this.cache.delete(key);
        entry.apis.close();
      }
    }
    if (this.cache.size < this.maxEntries) return;
    for (const entry of this.cache.values()) entry.apis.close();
    this.cache.clear();
    this.options.log.debug('caller client cache full; cleared');
  }

  close(): void {
    for (const entry of this.cache.values()) entry.apis.close();
    this.cache.clear();
  }
}

/**
 * The caller's read permissions as the read cache asks them: each SelfSubjectAccessReview answer is
 * reused per caller, verb, resource and namespace for `ttlMs` (30 s), so a busy caller costs one review
 * per half minute and a revoked permission stops counting within it; no answer outlives the token's
 * `exp`. Failed reviews are not kept;
 * callers are keyed by sha256 of their token, never the token; at most `maxEntries` answers.
 */
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { RequestContext } from '../../identity/caller.js';
import type { ReadAttributes, ReadAuthorizer } from './cache-ports.js';

export interface CachedAuthorizerOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/** `review` (one SelfSubjectAccessReview) behind a short-lived answer cache. */
export function cachedReadAuthorizer(
  review: ReadAuthorizer, options: CachedAuthorizerOptions = {},
): ReadAuthorizer & { size(): number } {
  const ttlMs = Math.min(options.ttlMs ?? 30_000, 30_000);
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { allowed: boolean; until: number }>();
  const authorize = async (ctx: RequestContext, attributes: ReadAttributes): Promise<boolean> => {
    if (!ctx.token) return false;
    const caller = createHash('sha256').update(ctx.token).digest('base64url');
    const key = `${caller} ${attributes.verb} ${attributes.group}/${attributes.resource} ${attributes.namespace}`;
    const at = now();
    const known = answers.get(key);
    if (known && known.until > at) return known.allowed;
    const allowed = await review(ctx, attributes);
    // Never past the token's own expiry: the API server refuses an expired token from that second on
    // (our guard allows clock skew), so a kept answer would let the cache serve what it now refuses.
    if (answers.size >= maxEntries) {
      for (const [k, v] of answers) if (v.until <= at) answers.delete(k);
      if (answers.size >= maxEntries) answers.clear();
    }
    answers.set(key, { allowed, until: Math.min(at + ttlMs, expiryMs(ctx.token)) });
    return allowed;
  };
  return Object.assign(authorize, { size: () => answers.size });
}

/** The token's `exp` in epoch milliseconds (its signature was checked by the bearer guard), or Infinity. */
function expiryMs(token: string): number {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : Infinity;
  } catch {
    return Infinity;
  }
}

import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../identity/caller.js';
import { cachedReadAuthorizer } from './review-cache.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
// The bearer guard has checked the signature before a review is asked; only the claims matter here.
const token = (exp: number) => `${b64({ alg: 'RS256' })}.${b64({ sub: 'alice', exp })}.signature`;
const attributes = { verb: 'list' as const, group: 'helm.toolkit.fluxcd.io', resource: 'helmreleases', namespace: 'tenant' };

/** An authorizer that allows everything, counting its reviews, on a clock the test moves. */
function counted() {
  const state = { clock: 1_000_000_000_000, reviews: 0 };
  const authorize = cachedReadAuthorizer(async () => {
    state.reviews++;
    return true;
  }, { now: () => state.clock });
  return { state, authorize };
}

describe('cachedReadAuthorizer', () => {
  it('reuses an answer within its time, but never past the token\'s expiry, when the API server refuses the token', async () => {
    const { state, authorize } = counted();
    const ctx = { requestId: 'r', token: token(state.clock / 1000 + 5) } as unknown as RequestContext;
    expect(await authorize(ctx, attributes)).toBe(true);
    state.clock += 4_000;
    expect(await authorize(ctx, attributes)).toBe(true);
    expect(state.reviews).toBe(1);
    // Past exp, inside the 30 s the answer would otherwise be kept: asked again (and the API server decides).
    state.clock += 2_000;
    await authorize(ctx, attributes);
    expect(state.reviews).toBe(2);
  });

  it('keeps an answer its 30 s for a token that expires later, and asks for no token at all', async () => {
    const { state, authorize } = counted();
    const ctx = { requestId: 'r', token: token(state.clock / 1000 + 3600) } as unknown as RequestContext;
    await authorize(ctx, attributes);
    state.clock += 29_000;
    await authorize(ctx, attributes);
    expect(state.reviews).toBe(1);
    expect(await authorize({ requestId: 'r' } as unknown as RequestContext, attributes)).toBe(false);
    expect(state.reviews).toBe(1);
  });
});

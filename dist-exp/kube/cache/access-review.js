/**
 * The caller's read permissions as the read cache asks them: each SelfSubjectAccessReview answer is
 * reused per caller, verb, resource and namespace for `ttlMs` (30 s), so a busy caller costs one review
 * per half minute and a revoked permission stops counting within it. Failed reviews are not kept;
 * callers are keyed by sha256 of their token, never the token; at most `maxEntries` answers.
 */
import { createHash } from 'node:crypto';
/** `review` (one SelfSubjectAccessReview) behind a short-lived answer cache. */
export function cachedReadAuthorizer(review, options = {}) {
    const ttlMs = Math.min(options.ttlMs ?? 30_000, 30_000);
    const maxEntries = options.maxEntries ?? 10_000;
    const now = options.now ?? Date.now;
    const answers = new Map();
    const authorize = async (ctx, attributes) => {
        if (!ctx.token)
            return false;
        const caller = createHash('sha256').update(ctx.token).digest('base64url');
        const key = `${caller} ${attributes.verb} ${attributes.group}/${attributes.resource} ${attributes.namespace}`;
        const at = now();
        const known = answers.get(key);
        if (known && known.until > at)
            return known.allowed;
        const allowed = await review(ctx, attributes);
        if (answers.size >= maxEntries) {
            for (const [k, v] of answers)
                if (v.until <= at)
                    answers.delete(k);
            if (answers.size >= maxEntries)
                answers.clear();
        }
        answers.set(key, { allowed, until: at + ttlMs });
        return allowed;
    };
    return Object.assign(authorize, { size: () => answers.size });
}
//# sourceMappingURL=access-review.js.map
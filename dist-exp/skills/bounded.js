/**
 * A bounded worker pool: `fn` over `items` with at most `limit` calls in flight, results
 * in input order. The first failure stops the pool from starting more calls and is
 * rethrown once the calls already in flight have settled.
 */
export async function mapBounded(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
        while (!failed && next < items.length) {
            const index = next++;
            try {
                results[index] = await fn(items[index], index);
            }
            catch (err) {
                failed = true;
                throw err;
            }
        }
    };
    const settled = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    const rejected = settled.find((s) => s.status === 'rejected');
    if (rejected)
        throw rejected.reason;
    return results;
}
//# sourceMappingURL=bounded.js.map
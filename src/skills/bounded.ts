/**
 * A bounded worker pool: `fn` over `items` with at most `limit` calls in flight, results
 * in input order. The first failure stops the pool from starting more calls and is
 * rethrown once the calls already in flight have settled.
 */
export async function mapBounded<T, R>(
  items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  // One queue the workers share: each takes the next item once it is free.
  const queue = items.entries();
  let failed = false;
  const worker = async (): Promise<void> => {
    for (const [index, item] of queue) {
      if (failed) return;
      try {
        results[index] = await fn(item, index);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results;
}

/**
 * Poll `probe` until it returns a value other than undefined (or stops throwing), or
 * fail after `timeoutMs` with the last error. For controllers that converge over time:
 * a deadline, never a timing assertion.
 */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} did not hold within ${timeoutMs} ms${last ? `: ${last instanceof Error ? last.message : String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

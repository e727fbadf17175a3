// Preloaded into `serve` by bench/memory.mjs (`node --expose-gc --import ./bench/lib/heap-probe.mjs`):
// on SIGUSR2, collect garbage twice and write the live heap and RSS, in bytes, to $BENCH_HEAP_FILE.
// Bench-only: the product never loads it.
import { writeFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  writeFileSync(process.env.BENCH_HEAP_FILE, JSON.stringify({ heapUsed, rss, gc: typeof globalThis.gc === 'function' }));
});

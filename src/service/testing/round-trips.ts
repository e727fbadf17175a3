/**
 * Measures how many SEQUENTIAL API round trips an operation makes, which is what a
 * caller waits for. A sandbox hook holds every request for a fixed delay and records
 * when it started and ended; requests issued concurrently overlap, so the longest chain
 * of requests each starting after the previous one ended is the operation's depth.
 * This is a structural count, not a timing assertion: the delay only makes the overlap
 * of concurrent requests unambiguous.
 */
import type { Sandbox } from '../../sandbox/index.js';

export interface RoundTripMeter {
  /** Requests seen since the meter started (or was reset). */
  readonly requests: number;
  /** The longest chain of non-overlapping requests. */
  depth(): number;
  reset(): void;
  stop(): void;
}

export function meterRoundTrips(sandbox: Sandbox, holdMs = 25): RoundTripMeter {
  let spans: { start: number; end: number }[] = [];
  const remove = sandbox.hooks.use(async (_ctx, next) => {
    const span = { start: performance.now(), end: Number.POSITIVE_INFINITY };
    spans.push(span);
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    try {
      await next();
    } finally {
      span.end = performance.now();
    }
  });
  return {
    get requests() {
      return spans.length;
    },
    depth() {
      // Greedy by end time gives the longest chain of non-overlapping intervals.
      const sorted = [...spans].sort((a, b) => a.end - b.end);
      let chain = 0;
      let lastEnd = Number.NEGATIVE_INFINITY;
      for (const span of sorted) {
        if (span.start >= lastEnd) {
          chain++;
          lastEnd = span.end;
        }
      }
      return chain;
    },
    reset() {
      spans = [];
    },
    stop: remove,
  };
}

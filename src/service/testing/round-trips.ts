/**
 * Measures how many SEQUENTIAL API round trips an operation makes, which is what a
 * caller waits for. A sandbox hook holds every arriving request until no new request has
 * arrived for `quietMs`, then lets all held requests through together, and records when
 * each started and ended. Requests issued concurrently therefore overlap however slowly
 * the client prepares them (a loaded machine spreads their arrival over tens of
 * milliseconds), while a request that needs an earlier answer can only start after that
 * answer; the longest chain of requests each starting after the previous one ended is the
 * operation's depth. This is a structural count, not a timing assertion: the quiet window
 * only has to be longer than the gap between two concurrent requests.
 */
import type { Sandbox } from '@agent-manager/kube-sandbox';

export interface RoundTripMeter {
  /** Requests seen since the meter started (or was reset). */
  readonly requests: number;
  /** The longest chain of non-overlapping requests. */
  depth(): number;
  reset(): void;
  stop(): void;
}

export function meterRoundTrips(sandbox: Sandbox, quietMs = 150): RoundTripMeter {
  let spans: { start: number; end: number }[] = [];
  let held: (() => void)[] = [];
  let release: ReturnType<typeof setTimeout> | undefined;
  const remove = sandbox.hooks.use(async (_ctx, next) => {
    const span = { start: performance.now(), end: Number.POSITIVE_INFINITY };
    spans.push(span);
    await new Promise<void>((resolve) => {
      held.push(resolve);
      clearTimeout(release);
      release = setTimeout(() => {
        const batch = held;
        held = [];
        for (const go of batch) go();
      }, quietMs);
    });
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

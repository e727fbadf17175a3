/**
 * Counts the SEQUENTIAL API round trips an operation makes, what a caller waits for: a sandbox hook
 * holds arriving requests and releases them together once the client can send nothing more without an
 * answer (every request it started, per undici's `undici:request:create` event, has arrived and the
 * event loop turned a few times idle). The longest chain of requests each starting after the previous
 * ended is the depth. A structural count, never a timing: it waits on events, not on wall-clock windows.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Sandbox } from '@agent-manager/kube-sandbox';

export interface RoundTripMeter {
  /** Requests seen since the meter started (or was reset). */
  readonly requests: number;
  /** The longest chain of non-overlapping requests. */
  depth(): number;
  reset(): void;
  stop(): void;
}

/** What undici's diagnostics events carry of a request (undici's documented fields). */
interface UndiciRequest {
  origin?: string | URL;
  method?: string;
  path?: string;
}

/** Event-loop turns with nothing started or arriving before the held requests go on. */
const SETTLE_TURNS = 20;
/**
 * Held requests go on after this long without any progress, and depth() then fails: a
 * request the client started never reached the sandbox, so the count would mean nothing.
 * A guard against a hang, never what releases a round.
 */
const WATCHDOG_MS = 10_000;

export function meterRoundTrips(sandbox: Sandbox): RoundTripMeter {
  const origin = new URL(sandbox.url).origin;
  let spans: { start: number; end: number }[] = [];
  let held: (() => void)[] = [];
  // Started by the client, not yet seen by the hook (nor answered without it, e.g. a 401).
  const inFlight = new Set<UndiciRequest>();
  let settling = false;
  let activity = 0;
  let stalled: string | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;

  const releaseHeld = () => {
    clearTimeout(watchdog);
    watchdog = undefined;
    const batch = held;
    held = [];
    for (const go of batch) go();
  };
  const armWatchdog = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      stalled = `${inFlight.size} request(s) the client started never reached the sandbox: ${[...inFlight].map((r) => `${r.method} ${r.path}`).join(', ')}`;
      inFlight.clear();
      releaseHeld();
    }, WATCHDOG_MS);
  };

  const ours = (request: UndiciRequest) =>
    request.origin !== undefined && new URL(String(request.origin)).origin === origin;
  const onCreate = (message: unknown) => {
    const { request } = message as { request: UndiciRequest };
    if (!ours(request)) return;
    inFlight.add(request);
    activity++;
  };
  const onDone = (message: unknown) => {
    const { request } = message as { request: UndiciRequest };
    if (inFlight.delete(request)) activity++;
    maybeRelease();
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:request:headers', onDone);
  subscribe('undici:request:error', onDone);

  /** Releases the held requests once nothing the client started is still on its way. */
  function maybeRelease(): void {
    if (settling || held.length === 0 || inFlight.size > 0) return;
    settling = true;
    const seen = activity;
    let turns = 0;
    const turn = () => {
      if (activity !== seen || inFlight.size > 0) {
        settling = false;
        maybeRelease();
        return;
      }
      if (++turns < SETTLE_TURNS) {
        setImmediate(turn);
        return;
      }
      settling = false;
      releaseHeld();
    };
    setImmediate(turn);
  }

  const remove = sandbox.hooks.use(async (ctx, next) => {
    const span = { start: performance.now(), end: Number.POSITIVE_INFINITY };
    spans.push(span);
    const method = ctx.req.method ?? '';
    const path = ctx.req.url ?? '';
    for (const request of inFlight) {
      if (request.method === method && request.path === path) {
        inFlight.delete(request);
        break;
      }
    }
    activity++;
    armWatchdog();
    await new Promise<void>((resolve) => {
      held.push(resolve);
      maybeRelease();
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
      if (stalled) throw new Error(`the round-trip meter is not reliable: ${stalled}`);
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
      stalled = undefined;
    },
    stop() {
      remove();
      unsubscribe('undici:request:create', onCreate);
      unsubscribe('undici:request:headers', onDone);
      unsubscribe('undici:request:error', onDone);
      releaseHeld();
    },
  };
}

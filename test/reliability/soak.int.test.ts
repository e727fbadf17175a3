/**
 * A soak at moderate load (200 requests/s from 4 paced clients of the mixed workload:
 * reads, status, validate, MCP, and a create/update/delete cycle each) for 5 minutes with
 * RELIABILITY_BUDGET=full, 30 s with short, 6 s with ci, after a warm-up. The run is cut into windows;
 * each window yields its latencies and, at a pause of the clients after a forced
 * collection (when the test runs with --expose-gc, as its config asks), the RSS.
 *
 * The sandbox runs its simulated controllers, as a cluster runs its own: above all the
 * garbage collector, which deletes the ControllerRevisions a deleted agent owned. Without
 * it every revision of the roughly 1,000 agents a 2-minute soak creates and deletes stays
 * in the store, each write lists more of them, and p90 climbs from 3 to 26 ms: a growth
 * of the fixture, not of the service, which a still fixture would report as a leak.
 *
 * Claims: the median RSS of the last third of the windows is within 10 % (+ 8 MB) of the
 * first third's; the median of the last third's window p99s is within 10 % (+ 2 ms) of the
 * first third's, or within the largest window p99 the first third saw (a shared machine
 * moves a window's p99 by far more than 10 % with no trend in it); every request of the
 * run got its expected answer; and once the app, the sandbox and the client are closed,
 * the process has no more active handles than before they started.
 *
 * Why the p99 claim does not flake: with no trend the windows are alike, and the last
 * third's median exceeds every window of the first third only when the top n+1-ceil(n/2) of
 * the 2n windows of both thirds all fall in the last one: with n = 13 (the short budget's
 * and the ci budget's 40 windows) that is C(13,7)/C(26,7) = 0.26 %, before the 10 % allowance. A degradation
 * such as the fixture growth above ends the run with every window above the first third's; the test
 * runs once more when a claim fails, since a burst from outside rarely hits two runs and a trend does.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { seedAgentCr, seedRelease, seedWorkload } from '../support/service/seed-agents.js';
import { budget } from './support/budget.js';
import { median, percentile, startMixedLoad } from './support/mixed-load.js';
import { startServedApp, type ServedApp } from './support/service-app.js';

const B = budget();
const MiB = 1024 * 1024;
/** Allowed growth: 10 % plus these absolute slacks. */
const RSS_SLACK = 8 * MiB;
const P99_SLACK_MS = 2;
/** Requests per second: moderate (a few percent of what the app serves on one core), and the same all along. */
const RATE = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const activeHandles = (): string[] =>
  (process as unknown as { _getActiveHandles(): object[] })
    ._getActiveHandles()
    .map((h) => h.constructor?.name ?? typeof h);

interface Window {
  latencies: number[];
  p99: number;
  rss: number;
  heap: number;
}

let served: ServedApp | undefined;
afterAll(async () => {
  await served?.close();
});

describe(`a ${Math.round(B.soakMeasureMs / 1000)} s soak at moderate load`, () => {
  // One retry: a neighbour's burst on a shared machine can raise one run's last third (seen once in a CI run
  // right after the heavy steps, while three runs alone held flat); a real trend fails both runs.
  it('keeps RSS and p99 flat, answers every request, and leaks no handles', { retry: 1 }, async () => {
    // A retry first closes what the failed run left open, so it neither competes nor counts as a handle.
    await served?.close();
    served = undefined;
    gc();
    await sleep(200);
    const baseline = activeHandles();

    served = await startServedApp({ metrics: true, sandbox: { historyCapacity: 500, controllers: true } });
    const { sandbox } = served.fixture;
    const reads = Array.from({ length: 10 }, (_, i) => `soak-read-${i}`);
    for (const name of reads) {
      seedRelease(sandbox, { name, ready: true, chartVersion: '0.5.2' });
      seedAgentCr(sandbox, { name, release: { name, namespace: 'kagent' }, ready: true, accepted: true });
      seedWorkload(sandbox, { name, pods: [{ name: `${name}-pod`, ready: true }] });
    }

    const load = startMixedLoad(served.client, { clients: 4, rate: RATE, reads, prefix: 'soak' });
    const windows: Window[] = [];
    try {
      await sleep(B.soakWarmupMs);
      load.cut();
      // A fixed count of windows, so every run compares thirds of the same size.
      const count = Math.round(B.soakMeasureMs / B.soakWindowMs);
      while (windows.length < count) {
        await sleep(B.soakWindowMs);
        // Memory is sampled with no request in flight, after a full collection, so the
        // collection's pause never lands in a request's latency.
        await load.pause();
        const { latencies } = load.cut();
        gc();
        const memory = process.memoryUsage();
        load.resume();
        windows.push({ latencies, p99: percentile(latencies, 99), rss: memory.rss, heap: memory.heapUsed });
      }
    } finally {
      await load.stop();
    }

    const third = Math.floor(windows.length / 3);
    const first = windows.slice(0, third);
    const last = windows.slice(windows.length - third);
    const summary = {
      windows: windows.length, requests: load.requests,
      requestsPerSecond: Math.round(
        windows.reduce((n, w) => n + w.latencies.length, 0) / ((windows.length * B.soakWindowMs) / 1000),
      ),
      p99ms: { first: median(first.map((w) => w.p99)), last: median(last.map((w) => w.p99)) },
      windowP99ms: windows.map((w) => w.p99),
      rssMiB: { first: median(first.map((w) => w.rss)) / MiB, last: median(last.map((w) => w.rss)) / MiB },
      heapMiB: { first: median(first.map((w) => w.heap)) / MiB, last: median(last.map((w) => w.heap)) / MiB },
    };
    console.log(`soak (${B.name}): ${JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`);

    expect(load.failures, `${load.failureCount} of ${load.requests} requests got an unexpected answer`).toEqual([]);
    expect(third).toBeGreaterThanOrEqual(3);
    expect(windows.every((w) => w.latencies.length > 0), 'every window served requests').toBe(true);
    expect(summary.rssMiB.last * MiB).toBeLessThanOrEqual(summary.rssMiB.first * MiB * 1.1 + RSS_SLACK);
    // Within 10 % (+ slack), or within the spread the first third itself showed.
    const firstSpread = Math.max(...first.map((w) => w.p99));
    expect(summary.p99ms.last).toBeLessThanOrEqual(Math.max(summary.p99ms.first * 1.1 + P99_SLACK_MS, firstSpread));

    await served.close();
    served = undefined;
    // Closing is asynchronous (sockets end, agents destroy their pools): wait for it, then compare.
    let now = activeHandles();
    for (let i = 0; i < 100 && now.length > baseline.length; i++) {
      await sleep(100);
      now = activeHandles();
    }
    expect(now.length, `handles after closing: ${now.join(', ')}; before: ${baseline.join(', ')}`).toBeLessThanOrEqual(baseline.length);
  });
});

/**
 * Node's process metrics (CPU, memory, handles, GC, event loop delay) on one registry per process.
 * They describe the process, not a service instance, so every Metrics in it shares them; and
 * prom-client's collection cannot be stopped: each call starts an event-loop delay monitor, a
 * native timer firing every 10 ms for the life of the process. One collection per process keeps
 * a process that builds several apps (the test suites do) at one timer.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

/** Default process metrics whose names break the Prometheus naming rules (promtool refuses them). */
const LINT_FAILING_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total',
  'nodejs_active_resources_total'];

let shared: Registry | undefined;

/** The process's metrics registry, collecting from its first use. */
export function processMetricsRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
    // prom-client names three gauges `_total`, which Prometheus reserves for counters; their
    // per-type twins without the suffix stay.
    for (const name of LINT_FAILING_DEFAULTS) shared.removeSingleMetric(name);
  }
  return shared;
}

/**
 * What `serve` takes down, and when: it waits for the stop signal (readiness off, keep-alive off, the
 * `--shutdown-delay` served through), then closes the listeners together, so in-flight requests share
 * one drain period, then runs every cleanup in reverse order of creation; a failing cleanup is logged
 * and the rest still run, so one stuck client never keeps the sandbox or the exporter open.
 */
import type { AppConfig } from './config/index.js';
import type { Logger } from './log/logger.js';
import { Lifecycle } from './transport/http/lifecycle.js';
import type { RunningServer } from './transport/http/http-server.js';
import { nextSignal, shutdownDelay } from './serve-signals.js';

/** One step of the shutdown. */
export type Cleanup = () => unknown;

/** What a run of `serve` has opened so far: taken down in reverse by `takeDown`. */
export class Opened {
  /** Run last to first; the first pushed (the tracer) runs last, so the whole shutdown is traced. */
  readonly cleanups: Cleanup[] = [];
  readonly listeners: RunningServer[] = [];
  /** Turns `/readyz` to 503 and ends waits and status streams. */
  readonly lifecycle = new Lifecycle();
}

/** Serve until `stop` (default: the first SIGTERM or SIGINT), then through the shutdown delay. */
export async function awaitStop(
  config: AppConfig, log: Logger, opened: Opened, stop: Promise<unknown> | undefined,
): Promise<void> {
  const reason = await (stop ?? nextSignal());
  opened.lifecycle.stop();
  for (const listener of opened.listeners) listener.stopKeepAlive();
  log.info({ ...(typeof reason === 'string' ? { signal: reason } : {}), delay: config.shutdown.delay.text },
    'shutting down');
  log.flush();
  await shutdownDelay(config.shutdown.delay.ms, stop === undefined);
}

/** The listeners first, together, then the clients and the sandbox in reverse order of creation. */
export async function takeDown(config: AppConfig, log: Logger, opened: Opened): Promise<void> {
  if (opened.listeners.length > 0) log.info({ timeout: config.shutdown.timeout.text }, 'draining');
  log.flush();
  // Waits and status streams end now, with their watches, instead of holding the drain.
  opened.lifecycle.drain();
  await Promise.all(opened.listeners.map((l) => l.close(config.shutdown.timeout.ms)));
  for (const cleanup of opened.cleanups.reverse()) {
    try {
      await cleanup();
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'shutdown step failed');
    }
  }
}

/**
 * Whether this process still wants new traffic. It turns once, on SIGTERM: from then on
 * `GET /readyz` answers 503, so every load balancer that probes readiness takes the pod
 * out, while the listeners keep serving for `--shutdown-delay` (the time Kubernetes
 * needs to remove the endpoint everywhere). Only then do they stop accepting and drain.
 *
 * Liveness (`/healthz`) does not change: a pod that is shutting down is not broken, and
 * restarting it would cut what it is still finishing.
 *
 * `draining` aborts when the listeners stop accepting: long waits (wait_for_agent, the
 * status stream, a write's `wait`) end then, with their watches, so the drain is not held
 * up by them; a client that asks again reaches another replica. Not at SIGTERM itself:
 * during the delay this pod may still get new waits, which should run, not end at once.
 */
export class Lifecycle {
  #stopping = false;
  readonly #draining = new AbortController();

  /** True once shutdown has begun. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Aborts once the listeners stop accepting. */
  get draining(): AbortSignal {
    return this.#draining.signal;
  }

  /** Begin shutting down: readiness turns false for good. */
  stop(): void {
    this.#stopping = true;
  }

  /** The listeners stop accepting: every wait ends. */
  drain(): void {
    this.#stopping = true;
    this.#draining.abort(new Error('the server is shutting down'));
  }
}

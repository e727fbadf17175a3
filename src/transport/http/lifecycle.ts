/**
 * Whether this process still wants new traffic. It turns once, on SIGTERM: from then on
 * `GET /readyz` answers 503, so every load balancer that probes readiness takes the pod
 * out, while the listeners keep serving for `--shutdown-delay` (the time Kubernetes
 * needs to remove the endpoint everywhere). Only then do they stop accepting and drain.
 *
 * Liveness (`/healthz`) does not change: a pod that is shutting down is not broken, and
 * restarting it would cut what it is still finishing.
 */
export class Lifecycle {
  #stopping = false;

  /** True once shutdown has begun. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Begin shutting down: readiness turns false for good. */
  stop(): void {
    this.#stopping = true;
  }
}

/**
 * Whether this process still wants traffic. It turns once, on SIGTERM: `/readyz` answers 503 so load
 * balancers take the pod out while listeners serve on for `--shutdown-delay`, then they drain;
 * `/healthz` stays 200, since restarting a pod that is finishing work would cut it. `draining` aborts
 * when the listeners stop accepting, ending long waits and their watches so they do not hold the drain
 * (a client asking again reaches another replica), not at SIGTERM, when new waits should still run.
 */
export class Lifecycle {
    #stopping = false;
    #draining = new AbortController();
    /** True once shutdown has begun. */
    get stopping() {
        return this.#stopping;
    }
    /** Aborts once the listeners stop accepting. */
    get draining() {
        return this.#draining.signal;
    }
    /** Begin shutting down: readiness turns false for good. */
    stop() {
        this.#stopping = true;
    }
    /** The listeners stop accepting: every wait ends. */
    drain() {
        this.#stopping = true;
        this.#draining.abort(new Error('the server is shutting down'));
    }
}
//# sourceMappingURL=lifecycle.js.map
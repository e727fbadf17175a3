import { EMBEDDED_SCHEMA, EMBEDDED_SCHEMA_VERSION } from './embedded/embedded.js';
import { parseOciReference } from './oci-reference.js';
import { readChartSchema } from './read-chart-schema.js';
import { RegistryClient } from './registry-client.js';
import { latestVersion, parseSemverConstraint } from './semver-constraint.js';
/** How long after a failed read the registry is tried again. */
export const RETRY_AFTER_FAILURE_MS = 60_000;
const DEFAULT_RESOLVE_TIMEOUT_MS = 30_000;
/** How long `info()` waits for a read in flight before reporting the current state. */
const INFO_WAIT_MS = 5_000;
export const REGISTRY_UNAVAILABLE_MESSAGE = 'agent chart registry unavailable, validating against the embedded schema';
const REGISTRY_UNAVAILABLE_CACHED = 'agent chart registry unavailable, validating against the last schema read from it';
/** The registry-backed `ChartSchemaSource`. */
export class RegistryChartSchemaSource {
    options;
    client;
    constraint;
    now;
    embedded;
    closed = new AbortController();
    /** The last schema read from the registry. */
    cached;
    latest;
    resolvedAt;
    error;
    /** When the registry was last read (ms), moved back after a failure to retry sooner. */
    fetched = Number.NEGATIVE_INFINITY;
    inFlight;
    inOutage = false;
    constructor(options) {
        this.options = options;
        if (!(options.refreshMs > 0))
            throw new Error(`chart refresh must be positive, got ${options.refreshMs} ms`);
        this.constraint = parseSemverConstraint(options.semver);
        this.now = options.now ?? Date.now;
        this.client = new RegistryClient(parseOciReference(options.ociUrl), {
            fetch: options.fetch, now: this.now, credentials: options.credentials,
        });
        const fallback = options.embedded ?? {
            version: EMBEDDED_SCHEMA_VERSION, schema: EMBEDDED_SCHEMA,
        };
        this.embedded = { version: fallback.version, source: 'embedded', schema: fallback.schema };
    }
    /** The schema to validate with. Reads the registry when the last read is older than refresh. */
    async schema() {
        const started = this.startResolveIfStale();
        if (started)
            await started;
        return this.cached ?? this.embedded;
    }
    /**
     * What `get_info` reports as `chart`; may read the registry, like `schema()`. Unlike
     * `schema()` it waits up to 5 s for a read already in flight, so an operator asking right
     * after startup sees its outcome rather than the initial state, without hanging on a
     * registry that does not answer.
     */
    async info() {
        this.startResolveIfStale();
        if (this.inFlight)
            await settledWithin(this.inFlight, this.options.infoWaitMs ?? INFO_WAIT_MS);
        const current = this.cached ?? this.embedded;
        return {
            ociUrl: this.options.ociUrl,
            semver: this.options.semver,
            ...(this.latest !== undefined && { latestVersion: this.latest }),
            schemaVersion: current.version,
            schemaSource: current.source,
            ...(this.resolvedAt !== undefined && { resolvedAt: this.resolvedAt }),
            ...(this.error !== undefined && { error: this.error }),
        };
    }
    /**
     * Starts a registry read when the last one is older than refresh and none is running;
     * returns it, or undefined when this caller did not start one (single flight).
     */
    startResolveIfStale() {
        if (this.inFlight !== undefined || this.closed.signal.aborted)
            return undefined;
        if (this.now() - this.fetched < this.options.refreshMs)
            return undefined;
        const resolving = this.resolve().finally(() => {
            this.inFlight = undefined;
        });
        this.inFlight = resolving;
        return resolving;
    }
    /** Stops a running resolve (shutdown); later calls serve what is cached without reading. */
    close() {
        this.closed.abort();
    }
    /** Never rejects: a failure becomes `error`, the embedded (or last) schema and a retry in a minute. */
    async resolve() {
        const started = this.now();
        const timeoutMs = this.options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
        const signal = AbortSignal.any([this.closed.signal, AbortSignal.timeout(timeoutMs)]);
        try {
            const tags = await this.client.listTags(signal);
            const latest = latestVersion(tags, this.constraint);
            const previous = this.cached?.version;
            if (previous !== latest) {
                // Only a new version is downloaded; otherwise the same schema object stays (compiled once).
                const schema = deepFreeze(await readChartSchema(this.client, latest, signal));
                this.cached = { version: latest, source: 'registry', schema };
            }
            const recovered = this.inOutage;
            this.latest = latest;
            this.fetched = this.now();
            this.resolvedAt = new Date(this.fetched).toISOString();
            this.error = undefined;
            this.inOutage = false;
            this.options.onResolve?.({ ok: true, source: 'registry' });
            if (previous !== latest || recovered) {
                this.options.log.info({ ociUrl: this.options.ociUrl, semver: this.options.semver, version: latest, previous }, 'agent chart resolved');
            }
        }
        catch (err) {
            this.error = signal.aborted && !this.closed.signal.aborted
                ? `resolving the agent chart took longer than ${timeoutMs / 1000}s` : errorText(err);
            this.latest = undefined;
            // Retry in about a minute rather than after a whole refresh period.
            this.fetched = started - this.options.refreshMs + RETRY_AFTER_FAILURE_MS;
            this.options.onResolve?.({ ok: false, source: this.cached ? 'registry' : 'embedded' });
            if (!this.inOutage) {
                this.inOutage = true;
                this.options.log.warn({
                    ociUrl: this.options.ociUrl, semver: this.options.semver, error: this.error,
                    schemaVersion: (this.cached ?? this.embedded).version,
                }, this.cached ? REGISTRY_UNAVAILABLE_CACHED : REGISTRY_UNAVAILABLE_MESSAGE);
            }
        }
    }
}
/** Resolves when `work` settles or after `ms`, whichever is first; never rejects. */
async function settledWithin(work, ms) {
    let timer;
    const elapsed = new Promise((resolve) => {
        timer = setTimeout(resolve, ms);
        timer.unref();
    });
    await Promise.race([work.then(() => undefined, () => undefined), elapsed]);
    clearTimeout(timer);
}
function errorText(err) {
    return err instanceof Error ? err.message : String(err);
}
function deepFreeze(value) {
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const child of Object.values(value))
            deepFreeze(child);
    }
    return value;
}
//# sourceMappingURL=resolver.js.map
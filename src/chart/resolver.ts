/**
 * The agent chart's values schema as Flux will install it: the newest version in the configured range
 * of the chart's OCI registry, read again every `refresh`, with the embedded copy answering until the
 * registry has been read. It degrades explicitly: `schema()` never rejects (validation works offline),
 * `info()` names the source and the last error, a failing registry is retried about once a minute and
 * warned about once per outage. One resolve at a time; the schema object stays the same per version.
 */
import type { Logger } from 'pino';
import type { ChartInfo } from '../core/types.js';
import type { ChartSchemaSource, ResolvedSchema } from '../service/ports.js';
import { EMBEDDED_SCHEMA, EMBEDDED_SCHEMA_VERSION } from './embedded/embedded-schemas.js';
import { parseOciReference } from './oci-reference.js';
import { readChartSchema } from './read-chart-schema.js';
import type { CredentialSource } from './registry-credentials.js';
import { RegistryClient } from './registry-client.js';
import { latestVersion, parseSemverConstraint, type SemverConstraint } from './semver-constraint.js';

/** How long after a failed read the registry is tried again. */
export const RETRY_AFTER_FAILURE_MS = 60_000;
const DEFAULT_RESOLVE_TIMEOUT_MS = 30_000;
/** How long `info()` waits for a read in flight before reporting the current state. */
const INFO_WAIT_MS = 5_000;

export const REGISTRY_UNAVAILABLE_MESSAGE = 'agent chart registry unavailable, validating against the embedded schema';
const REGISTRY_UNAVAILABLE_CACHED = 'agent chart registry unavailable, validating against the last schema read from it';

export interface RegistryChartSchemaSourceOptions {
  /** `oci://<registry>/<repository>`. */
  ociUrl: string;
  /** Masterminds range, as the OCIRepository's `ref.semver`. */
  semver: string;
  /** How long a read schema is served before the registry is asked again (ms, > 0). */
  refreshMs: number;
  log: Logger;
  /** Cap on one whole resolve (tags, manifest, blob); default 30 s. */
  resolveTimeoutMs?: number;
  /** How long `info()` waits for a read in flight; default 5 s. */
  infoWaitMs?: number;
  /** Clock in ms since the epoch; tests pass a fake one. */
  now?: () => number;
  fetch?: typeof fetch;
  /** Credentials for the registry; anonymous pulls when absent. */
  credentials?: CredentialSource;
  /** Told after every registry read: whether it worked and which source now answers (metrics). */
  onResolve?: (outcome: { ok: boolean; source: 'registry' | 'embedded' }) => void;
  /** The fallback; default the compiled-in chart 0.5.2 schema. */
  embedded?: { version: string; schema: Record<string, unknown> };
}

/** The registry-backed `ChartSchemaSource`. */
export class RegistryChartSchemaSource implements ChartSchemaSource {
  private readonly client: RegistryClient;
  private readonly constraint: SemverConstraint;
  private readonly now: () => number;
  private readonly embedded: ResolvedSchema;
  private readonly closed = new AbortController();
  /** The last schema read from the registry. */
  private cached: ResolvedSchema | undefined;
  private latest: string | undefined;
  private resolvedAt: string | undefined;
  private error: string | undefined;
  /** When the registry was last read (ms), moved back after a failure to retry sooner. */
  private fetched = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  private inOutage = false;

  constructor(private readonly options: RegistryChartSchemaSourceOptions) {
    if (!(options.refreshMs > 0)) throw new Error(`chart refresh must be positive, got ${options.refreshMs} ms`);
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
  async schema(): Promise<ResolvedSchema> {
    const started = this.startResolveIfStale();
    if (started) await started;
    return this.cached ?? this.embedded;
  }

  /**
   * What `get_info` reports as `chart`; may read the registry, like `schema()`. Unlike
   * `schema()` it waits up to 5 s for a read already in flight, so an operator asking right
   * after startup sees its outcome rather than the initial state, without hanging on a
   * registry that does not answer.
   */
  async info(): Promise<ChartInfo> {
    this.startResolveIfStale();
    if (this.inFlight) await settledWithin(this.inFlight, this.options.infoWaitMs ?? INFO_WAIT_MS);
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
  private startResolveIfStale(): Promise<void> | undefined {
    if (this.inFlight !== undefined || this.closed.signal.aborted) return undefined;
    if (this.now() - this.fetched < this.options.refreshMs) return undefined;
    const resolving = this.resolve().finally(() => {
      this.inFlight = undefined;
    });
    this.inFlight = resolving;
    return resolving;
  }

  /** Stops a running resolve (shutdown); later calls serve what is cached without reading. */
  close(): void {
    this.closed.abort();
  }

  /** Never rejects: a failure becomes `error`, the embedded (or last) schema and a retry in a minute. */
  private async resolve(): Promise<void> {
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
        this.options.log.info({ ociUrl: this.options.ociUrl, semver: this.options.semver, version: latest, previous },
          'agent chart resolved');
      }
    } catch (err) {
      this.error = signal.aborted && !this.closed.signal.aborted
        ? `resolving the agent chart took longer than ${timeoutMs / 1000}s` : errorText(err);
      this.latest = undefined;
      // Retry in about a minute rather than after a whole refresh period.
      this.fetched = started - this.options.refreshMs + RETRY_AFTER_FAILURE_MS;
      this.options.onResolve?.({ ok: false, source: this.cached ? 'registry' : 'embedded' });
      if (!this.inOutage) {
        this.inOutage = true;
        this.options.log.warn(
          {
            ociUrl: this.options.ociUrl, semver: this.options.semver, error: this.error,
            schemaVersion: (this.cached ?? this.embedded).version,
          },
          this.cached ? REGISTRY_UNAVAILABLE_CACHED : REGISTRY_UNAVAILABLE_MESSAGE,
        );
      }
    }
  }
}

/** Resolves when `work` settles or after `ms`, whichever is first; never rejects. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([work.then(() => undefined, () => undefined), elapsed]);
  clearTimeout(timer);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

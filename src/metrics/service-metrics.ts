/**
 * The metrics an SRE alerts on, beside app-metrics.ts's histograms, named by the Prometheus conventions
 * (`agent_manager_` prefix, base units, `_total`, `_seconds`, `_info`): build info, the chart schema's
 * source and registry errors, Kubernetes calls (labelled as `apiserver_request_total`), outgoing HTTP by
 * peer, writes by operation and outcome, and the read cache's objects and sync. Label values are fixed
 * sets (no name, namespace or URL becomes a label). docs/operations.md "Metrics" lists them all.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { asObject } from '../core/json.js';
import { kubeCallCode, type KubeCallHook } from '../kube/instrumented.js';
import type { FetchHook } from '../net/instrumented-fetch.js';
import { operationOutcome, writeOutcome, type OperationCall,
  type OperationHook } from '../service/instrumented-service.js';

/** Buckets for calls to dependencies: 5 ms to 10 s, as the server histograms. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** One resource a read cache holds. */
export interface ReadCacheState {
  readonly resource: string;
  /** Objects held now. */
  readonly objects: number;
  /** Whether its initial list has completed and the watch runs. */
  readonly synced: boolean;
}

/** The writes commit mode can propose as a pull request. */
const COMMIT_OPERATIONS = ['create_agent', 'update_agent', 'delete_agent', 'rollback_agent'];

/** A commit-mode answer that names the pull request it opened (a dry run opens none). */
function openedPullRequest(result: unknown): boolean {
  const r = asObject(result);
  return r.mode === 'commit' && typeof asObject(r.commit).pullRequest === 'string';
}

export class ServiceMetrics {
  private readonly schemaSource: Gauge<'source'>;
  private readonly registryErrors: Counter;
  private readonly kube: Histogram<'verb' | 'resource' | 'code'>;
  private readonly client: Histogram<'peer' | 'method' | 'code'>;
  private readonly writes: Counter<'operation' | 'outcome'>;
  private readonly pullRequests: Counter<'operation'>;
  private readCache: (() => readonly ReadCacheState[]) | undefined;

  constructor(registry: Registry, build: { version: string; commit: string }) {
    const registers = [registry];
    new Gauge({
      name: 'agent_manager_build_info', help: 'Build of the running agent-manager; always 1.',
      labelNames: ['version', 'commit', 'node_version'], registers,
    }).set({ version: build.version, commit: build.commit, node_version: process.version }, 1);
    this.schemaSource = new Gauge({
      name: 'agent_manager_chart_schema_source',
      help: 'The agent chart values schema source in use: 1 for registry or embedded, 0 for the other.',
      labelNames: ['source'], registers,
    });
    this.chartSchemaSource('embedded');
    this.registryErrors = new Counter({
      name: 'agent_manager_chart_registry_errors_total', help: 'Failed reads of the agent chart registry.', registers,
    });
    this.kube = new Histogram({
      name: 'agent_manager_kube_request_duration_seconds',
      help: 'Kubernetes API calls by verb, resource and HTTP status (error: no answer).',
      labelNames: ['verb', 'resource', 'code'], buckets: BUCKETS, registers,
    });
    this.client = new Histogram({
      name: 'agent_manager_http_client_request_duration_seconds',
      help: 'Requests to the chart registry, GitHub and the kagent A2A endpoint by peer, method and HTTP status ' +
        '(error: no answer).',
      labelNames: ['peer', 'method', 'code'], buckets: BUCKETS, registers,
    });
    this.writes = new Counter({
      name: 'agent_manager_writes_total',
      help: 'Write operations by operation and outcome (ok, dry_run or the error code).',
      labelNames: ['operation', 'outcome'], registers,
    });
    this.pullRequests = new Counter({
      name: 'agent_manager_pull_requests_total', help: 'Pull requests opened by commit-mode writes, by operation.',
      labelNames: ['operation'], registers,
    });
    // Every series from the start, so a dashboard shows 0 rather than no data.
    for (const operation of COMMIT_OPERATIONS) this.pullRequests.inc({ operation }, 0);
    const state = (): readonly ReadCacheState[] => this.readCache?.() ?? [];
    new Gauge({
      name: 'agent_manager_read_cache_objects', help: 'Objects the read cache holds, by resource.',
      labelNames: ['resource'], registers,
      collect() {
        this.reset();
        for (const s of state()) this.set({ resource: s.resource }, s.objects);
      },
    });
    new Gauge({
      name: 'agent_manager_read_cache_synced', help: 'Whether the read cache of a resource is synced (1) or not (0).',
      labelNames: ['resource'], registers,
      collect() {
        this.reset();
        for (const s of state()) this.set({ resource: s.resource }, s.synced ? 1 : 0);
      },
    });
  }

  /** The source the chart schema now comes from. */
  chartSchemaSource(source: 'registry' | 'embedded'): void {
    this.schemaSource.set({ source: 'registry' }, source === 'registry' ? 1 : 0);
    this.schemaSource.set({ source: 'embedded' }, source === 'embedded' ? 1 : 0);
  }

  /** One failed read of the chart registry. */
  chartRegistryError(): void {
    this.registryErrors.inc();
  }

  /** One finished write operation. */
  write(operation: string, outcome: string): void {
    this.writes.inc({ operation, outcome });
  }

  /** Where the read cache's state is read at every scrape; a later call replaces the earlier. */
  readCacheState(state: () => readonly ReadCacheState[]): void {
    this.readCache = state;
  }

  /** Times and counts every Kubernetes call (instrumentKube). */
  readonly kubeHook: KubeCallHook = async (call, run) => {
    const started = process.hrtime.bigint();
    const done = (code: string): void => {
      this.kube.observe(
        { verb: call.verb, resource: call.resource, code }, Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    try {
      const result = await run();
      done(kubeCallCode(call, { result }));
      return result;
    } catch (error) {
      done(kubeCallCode(call, { error }));
      throw error;
    }
  };

  /** Counts every write operation by outcome (instrumentService). */
  readonly operationHook: OperationHook = (call, run) => (call.write ? this.countWrite(call, run) : run());

  private async countWrite<T>(call: OperationCall, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.write(call.name, writeOutcome(result));
      if (openedPullRequest(result)) this.pullRequests.inc({ operation: call.name });
      return result;
    } catch (error) {
      this.write(call.name, operationOutcome(error));
      throw error;
    }
  };

  /** Times and counts every request to the registry and GitHub (instrumentFetch). */
  readonly fetchHook: FetchHook = async (call, run) => {
    const started = process.hrtime.bigint();
    const done = (code: string): void => {
      this.client.observe(
        { peer: call.peer, method: call.method, code }, Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    try {
      const res = await run();
      done(String(res.status));
      return res;
    } catch (error) {
      done('error');
      throw error;
    }
  };
}

/**
 * The embedded sandbox Kubernetes API server: an in-memory kube-apiserver look-alike on loopback HTTPS
 * that the real @kubernetes/client-node and kubectl use unchanged (`startSandbox`; cli.ts runs it alone).
 * Product code reaches it only through a dynamic import. Trust boundary: loopback only, accepting only
 * the tokens it generated, id_tokens of the issuer it trusts and authenticators a test adds; tokens appear
 * only in kubeconfigs the caller asks for; `authorization: 'rbac'` checks every request as the apiserver.
 */
import type { AuthenticatorChain, Authenticator, StaticTokenAuthenticator } from './auth/authenticator.js';
import type { Authorizer } from './auth/authorizer.js';
import type { OidcAuthenticatorConfig } from './auth/oidc-authenticator.js';
import type { RunningControllers } from './controllers/index.js';
import type { FaultInjector } from './faults.js';
import type { RequestCounters } from './counters.js';
import type { HookChain } from './hooks.js';
import type { KubeconfigUser } from './kubeconfig.js';
import { checkOrganization, DEFAULT_ORGANIZATION, workloadClusterNames } from './fleet.js';
import type { SandboxStore } from './ops/sandbox-store.js';
import type { SeedStep } from './seed.js';
import type { SandboxLogger } from './server/api-server.js';
import { generateTls, type SandboxTls } from './tls.js';
import { startWorkloads } from './fleet-start.js';
import { startServer } from './sandbox-start.js';
import type { A2ARequestRecord } from './a2a/a2a-server.js';

// The seams later parts plug into (OIDC and RBAC, controllers, fault injection, seeds).
export type { SandboxLogger } from './server/api-server.js';
export type { UserInfo, WriteOptions, ListOptions, DeleteOptions, PatchType } from './ops/op-options.js';
export type { Authenticator } from './auth/authenticator.js';
export type { AuthorizationAttributes, Authorizer, Decision } from './auth/authorizer.js';
export type { HookContext, RequestHook } from './hooks.js';
export type { StoreEvent, StoreListener } from './store/watch-hub.js';
export type { CounterSnapshot, RequestRecord } from './counters.js';
export type { KubeconfigUser } from './kubeconfig.js';
export { SandboxStore } from './ops/sandbox-store.js';
export { StatusError, statusErrors, statusForCode } from './api/status.js';
export { alwaysAllow, forbiddenError } from './auth/authorizer.js';
export { ADMIN_USER, serviceAccountUser } from './auth/authenticator.js';
export { CHART_V0_RANGE, CHART_V2_NAMESPACE, CHART_V2_RANGE, DEFAULT_SEED, KAGENT_NAMESPACE, MANAGED_NAMESPACES,
  SEED_MANAGER, seedChartRepository, seedChartV2NamespaceNamed, seedNamespacePair, type SeedStep } from './seed.js';
export { SIMULATED_CHART_VERSIONS } from './controllers/source-controller.js';
export { ADMIN_GROUP, SAMPLE_SEED, VIEWER_GROUP } from './seed-samples.js';
export { OidcAuthenticator, type OidcAuthenticatorConfig } from './auth/oidc-authenticator.js';
export { RbacAuthorizer } from './auth/rbac-authorizer.js';
export { generateTls, type SandboxTls } from './tls.js';
export { DEFAULT_RECONCILE_DELAY_MS, type HoldScope, type RunningControllers } from './controllers/index.js';
export type { CrashLoopTarget, FailureRule, FaultInjector, FaultSnapshot } from './faults.js';
export { A2A_PATH, DEFAULT_A2A_USER, type A2ARequestRecord } from './a2a/a2a-server.js';
export { replyTo, WORKING_STEPS, type AgentFacts } from './a2a/responder.js';
export { DEFAULT_MUSTER_SUBJECT, MUSTER_PATH, startMuster, type Muster, type MusterCall, type MusterFault,
  type MusterOptions } from './muster/muster-server.js';
export { DEFAULT_CATALOGUE, TOOL_GROUP_LABEL, type Catalogue, type CatalogueServer, type CatalogueTool,
  type ToolAnnotations } from './muster/catalogue.js';
export {
  CLUSTER_NAME_LABEL, CLUSTER_SECRET_TYPE, DEFAULT_ORGANIZATION, PLACED_CLUSTER_LABEL, SAMPLE_FLEET_AGENT,
  kubeconfigSecret, organizationNamespace, placedRelease,
} from './fleet.js';

/** How to start a sandbox. Everything is optional. */
export interface SandboxOptions {
  /** `host:port` on loopback; port 0 picks a free one. Default `127.0.0.1:0`. */
  listen?: string;
  /**
   * Seed steps to run: `true` for the default seed (the test fixture), `'samples'` for it
   * plus the sample agents and people's roles (the CLI and `serve --sandbox`), `false`
   * for none. Default true.
   */
  seed?: boolean | 'samples' | readonly SeedStep[];
  /**
   * Serve with this CA and certificate instead of generating them (about 30 ms of CPU): for
   * tests that start many sandboxes in one process. Workload clusters always generate their
   * own, since distinct clusters have distinct CAs.
   */
  tls?: SandboxTls;
  /** Fixed tokens instead of random ones (tests that restart the sandbox). */
  adminToken?: string;
  serviceAccountToken?: string;
  /** `rbac` enforces the stored Roles and bindings; default `always-allow`. */
  authorization?: 'rbac' | 'always-allow';
  /** An authorizer of the caller's own (wins over `authorization`); replaceable with `sandbox.authorizer = …`. */
  authorizer?: Authorizer;
  /** Authenticators tried after the static tokens. */
  authenticators?: readonly Authenticator[];
  /** Trust id_tokens of this OIDC issuer (kube-apiserver's `--oidc-*`), after the static tokens. */
  oidc?: OidcAuthenticatorConfig;
  /**
   * Run the simulated Flux, kagent and workload controllers. Default false, so tests keep
   * a still fixture; the CLI and `serve --sandbox` turn them on.
   */
  controllers?: boolean;
  /** Wait between a change and its reconcile (ms, default 100). */
  reconcileDelayMs?: number;
  /**
   * Serve kagent's A2A endpoint for every Ready Agent (plain HTTP on the sandbox's
   * loopback host, its own port). Default: on when `controllers` is.
   */
  a2a?: boolean;
  log?: SandboxLogger;
  /** Watch events kept for resuming watches (default 10000). */
  historyCapacity?: number;
  /** Default watch timeout when the client sets none (seconds, default 1800). */
  watchTimeoutSeconds?: number;
  /** Interval of watch bookmarks when clients allow them (ms, default 60000). */
  bookmarkIntervalMs?: number;
  /**
   * Make this the management cluster of workload clusters: their names, or N for
   * `cluster-1`..`cluster-N`. Each is a sandbox of its own (store, port, CA, tokens,
   * authorizer) started with these options and the seed without sample agents; this one
   * holds their kubeconfig Secrets in `org-<organization>`, as Cluster API writes them.
   */
  workloadClusters?: readonly string[] | number;
  /** The organization of the workload clusters; default `acme` when there are any. */
  organization?: string;
}

/** A running sandbox. */
export interface Sandbox {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** The CA that signed the server certificate (trust it to talk to `url`). */
  readonly caPem: string;
  /** Token of the administrator (group system:masters). */
  readonly adminToken: string;
  /** Token of `system:serviceaccount:kagent:agent-manager`. */
  readonly serviceAccountToken: string;
  /** In-process access to the objects (same semantics as the API). */
  readonly store: SandboxStore;
  readonly counters: RequestCounters;
  readonly hooks: HookChain;
  /** The static tokens; add users with `tokens.set(token, user)`. */
  readonly tokens: StaticTokenAuthenticator;
  /** The authenticator chain (static tokens first); append others with `add`. */
  readonly authenticators: AuthenticatorChain;
  /** The authorizer in force; assign to change it while serving. */
  authorizer: Authorizer;
  /** Fault injection: latency, failing requests, crash-looping pods. */
  readonly faults: FaultInjector;
  /** The running controllers, when started with `controllers: true`. */
  readonly controllers: RunningControllers | undefined;
  /** kagent's A2A base URL (`http://127.0.0.1:<port>/api/a2a`), when it is served. */
  readonly a2aUrl: string | undefined;
  /** The requests the A2A endpoint received (empty when it is not served). */
  readonly a2aRequests: readonly A2ARequestRecord[];
  /** Turn RBAC on (the bootstrap ClusterRoles are created when missing). */
  enableRbac(): void;
  /** A kubeconfig for `user` (default: the admin). */
  kubeconfigYaml(user?: KubeconfigUser): string;
  /** Write a kubeconfig (mode 0600) for `user` (default: the admin). */
  writeKubeconfig(path: string, user?: KubeconfigUser): Promise<void>;
  /** The workload clusters by name (empty when this is not a management cluster). */
  readonly workloads: ReadonlyMap<string, Sandbox>;
  /** The organization of the workload clusters, when there is one. */
  readonly organization: string | undefined;
  /**
   * Stop serving: controllers stop, open watches end, connections close, and the server
   * refuses connections (a way to make a workload cluster unreachable). Closes the
   * workload clusters too; closing again does nothing.
   */
  close(): Promise<void>;
}

/** Parse `host:port`, `[::1]:port` or `:port`; only loopback hosts are accepted. */
export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen.trim());
  if (!match) throw new Error(`--listen must be host:port on loopback (e.g. 127.0.0.1:6443), got "${listen}"`);
  const host = match[1] ?? (match[2] || '127.0.0.1');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    throw new Error(`the sandbox serves on loopback only (127.0.0.1, localhost or [::1]); "${host}" is not loopback`);
  }
  return { host, port: Number(match[3]) };
}

/** Start a sandbox API server (and, with `workloadClusters`, the workload clusters it manages). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const listen = parseListen(options.listen ?? '127.0.0.1:0');
  const names = workloadClusterNames(options.workloadClusters);
  const organization = names.length > 0 || options.organization !== undefined
    ? checkOrganization(options.organization ?? DEFAULT_ORGANIZATION) : undefined;
  // The workload clusters start while this one generates its certificate.
  const tlsPromise = options.tls ? Promise.resolve(options.tls) : generateTls();
  const workloads = await startWorkloads(startSandbox, options, listen.host, names).catch(async (err: unknown) => {
    await tlsPromise.catch(() => undefined);
    throw err;
  });
  try {
    return await startServer(options, await tlsPromise, workloads, organization, listen);
  } catch (err) {
    await Promise.all([...workloads.values()].map((w) => w.close()));
    throw err;
  }
}

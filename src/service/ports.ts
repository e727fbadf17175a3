/**
 * What the agent service needs from the outside world, declared by the service (the consumer) and kept
 * to what it uses: Kubernetes, the chart registry and GitHub are adapters behind these ports, which
 * tests fake here or serve from real loopback servers. Every port method answers or throws an `AppError`
 * already translated at the adapter (`fromKube`), so the service never sees a library exception.
 */
import type { ChartLine } from '../core/chart-lines/major-line.js';
import type { ChartInfo, ReadCacheInfo, SchemaSource, SkillsResult } from '../core/types.js';
import type { AppError } from '../core/errors.js';
import type { RequestContext } from '../identity/caller.js';
import type { TargetCluster } from '../core/fleet/target-cluster.js';

/** A resource type: group ('' for core), version, plural resource and kind. */
export interface Gvr {
  group: string;
  version: string;
  resource: string;
  kind: string;
}

/** Kubernetes object metadata, the parts we read and write. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  [key: string]: unknown;
}

/** Any Kubernetes object as plain JSON. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** As GetOptions' `onChance`: a caller the access review refuses gets an empty list from the cache. */
  onChance?: boolean;
}

/**
 * How a read may be answered. `onChance`: the object is read on the chance it exists (an Agent of the other chart
 * line), so a read cache that has listed the type may answer a miss itself, and a caller its access review says
 * may not read the type gets nothing instead of a request the API server would refuse.
 */
export interface GetOptions {
  onChance?: boolean;
}

/**
 * The Kubernetes API as one identity sees it. Errors are AppErrors whose messages use
 * the Go service's phrases (`get helmrelease kagent/sre`, `list agents in kagent`).
 */
export interface KubePort {
  /** The object, or undefined when the API answers 404 (see GetOptions for `onChance`). */
  get(gvr: Gvr, namespace: string, name: string, options?: GetOptions): Promise<KubeObject | undefined>;
  list(gvr: Gvr, namespace: string, options?: ListOptions): Promise<KubeObject[]>;
  create(gvr: Gvr, object: KubeObject, options?: WriteCallOptions): Promise<KubeObject>;
  /** PUT with the object's resourceVersion; a stale one is AppError('conflict') with the API error as cause. */
  replace(gvr: Gvr, object: KubeObject, options?: WriteCallOptions): Promise<KubeObject>;
  /**
   * True when deleted (or, in a dry run, when it would be), false when it was already gone.
   * With `resourceVersion` the API server deletes only that version (DeleteOptions
   * preconditions); another one is AppError('conflict').
   */
  remove(
    gvr: Gvr, namespace: string, name: string, options?: WriteCallOptions & { resourceVersion?: string },
  ): Promise<boolean>;
}

/**
 * How a write is sent. `dryRun`: the API server runs admission, schema validation and
 * RBAC (`dryRun=All`) and stores nothing.
 */
export interface WriteCallOptions {
  dryRun?: boolean;
}

/** A change a person wants to make, as an access review names it. */
export interface AccessAttributes {
  verb: 'create' | 'update' | 'delete';
  group: string;
  version: string;
  resource: string;
  namespace: string;
  name?: string;
}

/** The API server's answer to an access review; `reason` in its own words, when it gave one. */
export interface AccessDecision {
  allowed: boolean;
  reason?: string;
}

/** Hands out the Kubernetes client a request runs with. */
export interface KubeProvider {
  /** `caller`: every call presents the caller's token; `serviceAccount`: the pod's own identity. */
  readonly identity: 'caller' | 'serviceAccount';
  /** Throws AppError('unauthenticated') when the caller identity is required and the request has no token. */
  forRequest(ctx: RequestContext): KubePort;
  /**
   * The client the pure reads (list, get, status, model configs) use: a watch-fed cache
   * when one is on, which answers only what the identity may read. Absent: `forRequest`.
   * Writes, and the reads a write depends on, always use `forRequest`.
   */
  forReads?(ctx: RequestContext): KubePort;
  /**
   * List and watch as the request's identity (the same credential as `forRequest`, never
   * the read cache), for the rollout waiter. Absent: waiting is not available.
   */
  forWatches?(ctx: RequestContext): WatchPort;
  /**
   * Asks the API server whether the request's person may make a change, without making it
   * (commit mode asks before it proposes one): as the caller (SelfSubjectAccessReview)
   * when every call presents their token, else about the caller (SubjectAccessReview, made
   * by the ServiceAccount). Absent: the provider cannot ask, and a caller's proposal is refused.
   */
  reviewAccess?(ctx: RequestContext, attributes: AccessAttributes): Promise<AccessDecision>;
}

/**
 * The workload clusters of the fleet, as the management cluster's kubeconfig Secrets
 * (`org-<organization>/<cluster>-kubeconfig`, written by Cluster API) name them.
 */
export interface WorkloadClusters {
  /** The organizations this installation was granted (the chart's `fleet.organizations`). */
  readonly organizations: readonly string[];
  /**
   * The client provider of one workload cluster, of the same identity mode as the management
   * one. Refuses (400) a cluster without its Secret, or a Secret without `value`.
   */
  provider(target: TargetCluster): Promise<KubeProvider>;
  /** The clusters of an organization: the names of its `*-kubeconfig` Secrets, sorted. */
  clusters(organization: string): Promise<string[]>;
}

/** Which objects of a type and namespace a list or watch covers. */
export interface WatchSelectors {
  labelSelector?: string;
  fieldSelector?: string;
}

/** How a watch ended: without `failure` a normal end (the server's timeout, `stop`). */
export interface WatchFailure {
  /** The HTTP status when the API server answered with one (410: the version is too old to resume from). */
  status?: number;
  error: AppError;
}

export interface WatchEventHandlers {
  onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK', object: KubeObject): void;
  /** Called once, when the stream ends for any reason but `stop`. */
  onEnd(failure?: WatchFailure): void;
}

/**
 * One identity's list and watch of a collection. A list answers the collection's
 * resourceVersion, the point a watch starts from so that no change between the two is
 * missed. List failures are AppErrors.
 */
export interface WatchPort {
  list(
    gvr: Gvr, namespace: string, selectors: WatchSelectors,
  ): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  watch(
    gvr: Gvr, namespace: string, selectors: WatchSelectors, resourceVersion: string, handlers: WatchEventHandlers,
  ): Promise<{ stop(): void }>;
}

/** What get_info says about the read cache. */
export interface ReadCacheReport {
  status(): ReadCacheInfo;
}

/** A values schema of the agent chart and where it came from. */
export interface ResolvedSchema {
  version: string;
  source: SchemaSource;
  /** The parsed values.schema.json; the same object while the version is unchanged (compiled once). */
  schema: Record<string, unknown>;
}

/** What the service needs to know about the agent chart. Never rejects. */
export interface ChartSchemaSource {
  /** The values schema of a chart line's newest chart (default: the line new sources get). */
  schema(line?: ChartLine): Promise<ResolvedSchema>;
  info(line?: ChartLine): Promise<ChartInfo>;
}

/** Skill discovery in the configured repositories. */
export interface SkillCatalog {
  /** The configured repository URLs; empty means the capability is off. */
  readonly repositories: string[];
  list(options: { repository?: string; ref?: string; refresh?: boolean }, signal?: AbortSignal): Promise<SkillsResult>;
}

/**
 * What skills point at now, for pinning them at write time. Failures are AppErrors:
 * `invalid_request` when the answer is no (the ref or tag does not exist, a private
 * repository, a URL that cannot be resolved), `backend_error` when GitHub or the registry
 * could not be asked. Messages name the repository and ref; the caller adds the skill index.
 */
export interface SkillResolver {
  /** The head commit of `ref` (a branch, tag or commit; undefined: the default branch) of the repository at `url`. */
  gitCommit(url: string, ref: string | undefined, signal?: AbortSignal): Promise<string>;
  /** The manifest digest (`sha256:<hex>`) `tag` of `registry/repository` points at. */
  ociDigest(reference: { registry: string; repository: string; tag: string }, signal?: AbortSignal): Promise<string>;
}

/** A GitHub repository by owner and name (`owner/name`). */
export interface RepoRef {
  owner: string;
  name: string;
}

/** The manifests of a directory at one commit of a branch. */
export interface GitSnapshot {
  /** The commit the branch pointed at when read. */
  commit: string;
  /** Manifest files (`*.yaml`, `*.yml`, `Kustomization`) below the directory: path from the root → text. */
  files: Record<string, string>;
}

/** One pull request's worth of change: a branch from the base with one commit. */
export interface Proposal {
  repository: RepoRef;
  base: string;
  /** The base commit the change was planned on; the branch starts here. */
  baseCommit: string;
  branch: string;
  message: string;
  title: string;
  body: string;
  /** Path → new content, or null to remove the file. */
  changes: Array<{ path: string; content: string | null }>;
}

export type ProposalOutcome =
  | { moved: false; commit: string; pullRequest: string; number: number }
  /** The base branch no longer points at `baseCommit`: nothing was opened, plan again. */
  | { moved: true; head: string };

/**
 * The GitOps repository host (GitHub). The credential is chosen per request: the caller's
 * GitHub token when the request carries one, else the installation's GitHub App or token.
 * Failures are AppErrors: 401/403 name the credential that was refused, 404 the missing
 * branch.
 */
export interface GitOpsHost {
  /** The installation's own credential, or undefined when only a caller's token can be used. */
  readonly installation?: 'app' | 'token';
  read(ctx: RequestContext, repository: RepoRef, branch: string, directory: string): Promise<GitSnapshot>;
  propose(ctx: RequestContext, proposal: Proposal): Promise<ProposalOutcome>;
}

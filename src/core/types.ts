/**
 * The wire shapes of agent-manager: what create, update and
 * validate take, and what every read returns. REST bodies and MCP tool results are
 * exactly these objects, so their field names are frozen external names.
 *
 * Optional fields are omitted from JSON when unset; `ready`/`accepted` are always
 * present and `null` when unknown, as the Go service reports them.
 */

/** A git skill reference as list_skills reports it and create_agent takes it. */
import type { ReadCacheInfo } from './read-cache-info.js';

export type { ReadCacheInfo };

export interface GitRef {
  url: string;
  path?: string;
  ref?: string;
  name?: string;
}

/** The skills block: OCI refs, git refs and the optional credential Secret. */
export interface SkillsSpec {
  refs?: string[];
  gitRefs?: GitRef[];
  gitAuthSecretName?: string;
}

export const Runtime = { Go: 'go', Python: 'python' } as const;
export type Runtime = (typeof Runtime)[keyof typeof Runtime];

/**
 * How a write is carried out, beside what it changes. `dryRun`: every check runs and every
 * write is sent to the API server with `dryRun=All` (admission, the CRD schema and RBAC
 * decide too), and nothing is stored. `resourceVersion`: the agent's version the change is
 * based on (its HelmRelease's resourceVersion, as reads report it); the write is refused
 * when the release has changed since.
 */
export interface WriteOptions {
  dryRun?: boolean;
  resourceVersion?: string;
}

/** create_agent's arguments (also the validate body). */
export interface AgentSpec extends CommitOptions {
  namespace?: string;
  name: string;
  displayName?: string;
  description?: string;
  systemMessage?: string;
  modelConfig: string;
  iconUrl?: string;
  runtime?: string;
  skills?: SkillsSpec;
  toolset?: string[];
  /** Refused with the reason it is gone. */
  toolNames?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** create_agent's arguments with how to carry the write out. */
export interface CreateRequest extends AgentSpec {
  /** See WriteOptions. */
  dryRun?: boolean;
}

/**
 * update_agent's arguments. An absent field stays as it is; a string of "" (or only
 * whitespace) removes the key so the chart default applies again; lists and maps
 * replace the whole value.
 */
export interface AgentUpdate extends CommitOptions {
  namespace?: string;
  name: string;
  displayName?: string;
  description?: string;
  systemMessage?: string;
  modelConfig?: string;
  iconUrl?: string;
  runtime?: string;
  skills?: SkillsSpec;
  toolset?: string[];
  toolNames?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  force?: boolean;
  /** See WriteOptions: a dry run and the version the update is based on. */
  dryRun?: boolean;
  resourceVersion?: string;
}

/** A Kubernetes condition as we report it. */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export const Managed = { HelmRelease: 'helmrelease', GitOps: 'gitops', None: 'none' } as const;
export type Managed = (typeof Managed)[keyof typeof Managed];

/** The release behind an agent. */
export interface HelmReleaseRef {
  name: string;
  namespace: string;
  ready: boolean | null;
  reason?: string;
  message?: string;
  chartVersion?: string;
  lastAttemptedRevision?: string;
  suspended: boolean;
  gitOpsOwned: boolean;
  deleting: boolean;
  chartRef?: { kind: string; name: string; namespace?: string };
}

/** An agent as list_agents and get_agent report it. */
export interface Agent {
  name: string;
  namespace: string;
  exists: boolean;
  displayName?: string;
  description?: string;
  modelConfig?: string;
  runtime?: string;
  iconUrl?: string;
  systemMessage?: string;
  skills?: SkillsSpec;
  toolNames?: string[];
  toolset?: string[];
  /** Why the declared toolset is refused (a hand-applied release may declare `[]` or a bad selector). */
  toolsetProblem?: string;
  implicitFullAccess?: boolean;
  ready: boolean | null;
  accepted: boolean | null;
  conditions?: Condition[];
  managed: Managed;
  helmRelease?: HelmReleaseRef;
  values?: Record<string, unknown>;
  /** The agent's version: its HelmRelease's resourceVersion (absent without a release). */
  resourceVersion?: string;
}

/** The composed objects, as YAML for people and as values for programs. */
export interface Manifests {
  ociRepository: string;
  helmRelease: string;
  values: Record<string, unknown>;
}

export const SchemaSource = { Registry: 'registry', Embedded: 'embedded' } as const;
export type SchemaSource = (typeof SchemaSource)[keyof typeof SchemaSource];

export interface ValidateResult {
  valid: boolean;
  mode: 'create' | 'update';
  errors?: string[];
  schemaVersion: string;
  schemaSource: SchemaSource;
  manifests: Manifests;
  /** What the toolset preflight noticed that is legal but likely not meant (omitted when empty). */
  notes?: string[];
}

/** Where a write goes: the cluster (`apply`, the default) or a pull request (`commit`). */
export type WriteMode = 'apply' | 'commit';

/** The commit-mode arguments every write takes. */
export interface CommitOptions {
  mode?: WriteMode;
  /** The GitOps repository, `owner/name` (a new agent, or a release not defined in git). */
  repository?: string;
  /** The base branch the pull request targets. */
  branch?: string;
  /** The directory (a Kustomization's path) new agents are laid out below. */
  path?: string;
  /** Commit mode: plan and report the files (with their content), write nothing. */
  dryRun?: boolean;
}

/** One file a commit-mode write changes. */
export interface CommitFile {
  path: string;
  action: 'add' | 'update' | 'remove' | 'unchanged';
  /** The new content; only in a dry run (and never for a removed file). */
  content?: string;
}

/** What a commit-mode write changed in git, and the pull request that proposes it. */
export interface CommitInfo {
  /** `owner/name`. */
  repository: string;
  /** The base branch. */
  base: string;
  /** The pull request's branch (`agent-manager/<operation>-<namespace>-<name>-<id>`). */
  branch: string;
  /** The directory the change was planned in (the Kustomization's path, or the given one). */
  directory: string;
  /** The Flux Kustomization that applies the directory, `namespace/name`, when known. */
  kustomization?: string;
  files: CommitFile[];
  /** The pull request's URL and number; absent in a dry run. */
  pullRequest?: string;
  number?: number;
  /** The commit on the branch; absent in a dry run. */
  commit?: string;
  /** What to delete from the cluster by hand after the merge (Flux will not prune it). */
  liveSteps?: string[];
}

export interface CreateResult {
  agent: Agent;
  manifests: Manifests;
  created: { ociRepository: boolean; helmRelease: boolean };
  status?: Status;
  requestedBy?: string;
  /** Present and true for a dry run: `created` says what would have been created. */
  dryRun?: boolean;
  /** The revision this write recorded (absent when none was recorded). */
  revision?: number;
  /** What the caller should know: toolset preflight notes, and for an applied write a revision that could not be recorded. */
  notes?: string[];
  mode?: WriteMode;
  commit?: CommitInfo;
}

export interface UpdateResult {
  agent: Agent;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  changed: string[];
  manifests: Manifests;
  requestedBy?: string;
  /** Present and true for a dry run: nothing was written. */
  dryRun?: boolean;
  /** The revision this write recorded (absent when nothing was written or none was recorded). */
  revision?: number;
  notes?: string[];
  mode?: WriteMode;
  commit?: CommitInfo;
}

export type { RevisionOperation, RevisionSpec, RevisionEntry, RevisionDetail, RollbackResult } from './revision-types.js';

export interface DeleteResult {
  name: string;
  namespace: string;
  helmReleaseDeleted: boolean;
  agentDeleted: boolean;
  ociRepositoryDeleted: boolean;
  ociRepositoryKept?: string;
  requestedBy?: string;
  /** The version of the HelmRelease that was deleted (absent for a bare Agent CR). */
  resourceVersion?: string;
  /** Present and true for a dry run: the booleans say what would have been deleted. */
  dryRun?: boolean;
  mode?: WriteMode;
  commit?: CommitInfo;
}

export const Verdict = {
  Ready: 'ready',
  Progressing: 'progressing',
  Failed: 'failed',
  Unknown: 'unknown',
} as const;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

export interface ContainerStatus {
  name: string;
  state: 'waiting' | 'terminated' | 'running';
  reason?: string;
  message?: string;
  init?: boolean;
}

export interface PodStatus {
  name: string;
  phase: string;
  ready: boolean;
  restarts: number;
  containers?: ContainerStatus[];
}

export interface EventSummary {
  type: string;
  reason: string;
  message: string;
  object: string;
  count?: number;
  lastTimestamp?: string;
}

export interface HistoryEntry {
  version: number;
  chartVersion?: string;
  status?: string;
  lastDeployed?: string;
}

/** get_agent_status: the gathered facts and the verdict folded from them. */
export interface Status {
  name: string;
  namespace: string;
  verdict: Verdict;
  summary: string;
  agent?: { exists: boolean; ready: boolean | null; accepted: boolean | null; conditions?: Condition[] };
  helmRelease?: {
    exists: boolean;
    ready: boolean | null;
    suspended: boolean;
    gitOpsOwned: boolean;
    deleting: boolean;
    conditions?: Condition[];
    history?: HistoryEntry[];
    lastAttemptedRevision?: string;
  };
  deployment?: {
    exists: boolean;
    replicas: number;
    readyReplicas: number;
    availableReplicas: number;
    conditions?: Condition[];
  };
  pods?: PodStatus[];
  events?: EventSummary[];
}

export interface ModelConfig {
  name: string;
  namespace: string;
  provider?: string;
  model?: string;
  accepted: boolean | null;
  message?: string;
  managedBy?: string;
}

export interface Skill {
  name: string;
  description: string;
  repoUrl: string;
  path: string;
  ref: string;
}

export interface SkillRepository {
  repoUrl: string;
  ref?: string;
  skills: Skill[];
  truncated: boolean;
  error?: string;
  fetchedAt?: string;
}

export interface SkillsResult {
  repositories: SkillRepository[];
  skills: Skill[];
}

export interface ChartInfo {
  ociUrl: string;
  semver: string;
  latestVersion?: string;
  schemaVersion: string;
  schemaSource: SchemaSource;
  resolvedAt?: string;
  error?: string;
}

export interface Info {
  version: string;
  chart: ChartInfo;
  namespaces: { default: string; managed: string[] };
  capabilities: {
    list: boolean;
    get: boolean;
    create: boolean;
    update: boolean;
    delete: boolean;
    status: boolean;
    validate: boolean;
    modelConfigs: boolean;
    skills: boolean;
    writesAsCaller: boolean;
    /** Commit mode (pull requests to a GitOps repository) is configured. */
    commit: boolean;
  };
  identity: 'caller' | 'serviceAccount';
  apiVersions: { agent: string; modelConfig: string; helmRelease: string; ociRepository: string };
  flux: { helmReleaseInterval: string; ociRepositoryInterval: string; serviceAccountName?: string };
  skillsRepositories: string[];
  /** The toolset presets known here, in muster's order; `presetsChecked`: unknown ones are refused (--toolset-presets). */
  toolset: { presets: string[]; presetsChecked: boolean };
  /** Where reads are answered from: the watch-fed cache, or the API server. */
  readCache: ReadCacheInfo;
}

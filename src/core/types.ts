/**
 * The wire shapes: what create, update and validate take and every read returns, frozen external names.
 * api/openapi.yaml is their one source: openapi-typescript generates core/openapi.generated.ts from it
 * (at build and lint, never in git) and this module names its schemas; edit the schema, not this file.
 * Only the service's parsed inputs, not on the wire as such, are written here, derived from the
 * documented ones. Unset optional fields are omitted; `ready`/`accepted` are `null` when unknown.
 */
import type { components } from './openapi.generated.js';

/** The documented schemas of api/openapi.yaml. */
export type Schemas = components['schemas'];

/** The REST error body, `{"error":{"code","message"}}`. */
export type ErrorBody = Schemas['Error'];

/** A git skill reference as list_skills reports it and create_agent takes it. */
export type GitRef = Schemas['GitRef'];
/** The skills block: OCI refs, git refs and the optional credential Secret. */
export type SkillsSpec = Schemas['Skills'];
/** The skills of an agent as reads report them: each pin beside what was asked for. */
export type AgentSkills = Schemas['AgentSkills'];
export type Runtime = NonNullable<Schemas['AgentFields']['runtime']>;

/** Where a write goes: the cluster (`apply`, the default) or a pull request (`commit`). */
export type WriteMode = Schemas['WriteMode'];

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
  /** The agent's `version` the change is based on (REST If-Match); see core/writes/precondition-rules.ts. */
  version?: string;
}

/**
 * The commit-mode arguments every write takes (mode, repository, branch, path), and
 * `dryRun`, which in commit mode plans and reports the files (with their content) and
 * writes nothing.
 */
export type CommitOptions = Schemas['CommitFields'] & { dryRun?: boolean };

/** The writes commit mode proposes as a pull request instead of applying them. */
export type CommitOperation = 'create' | 'update' | 'delete' | 'rollback';

/**
 * create_agent's arguments (also the validate body) as the service takes them: the
 * documented Spec, except that `toolset` may be absent (the service refuses that in its
 * own words, the same on both transports) and `runtime` is any string (the chart schema
 * decides, and validate_agent reports a bad one as a violation).
 */
export type AgentSpec = Omit<Schemas['Spec'], 'toolset' | 'runtime'> & { toolset?: string[]; runtime?: string };

/** create_agent's arguments with how to carry the write out (`dryRun` is part of the Spec). */
export type CreateRequest = AgentSpec;

/**
 * update_agent's arguments: a Spec of which only the name is required, plus `force` and
 * the version the update is based on. An absent field stays as it is; a string of "" (or
 * only whitespace) removes the key so the chart default applies again; lists and maps
 * replace the whole value.
 */
export type AgentUpdate = Partial<AgentSpec> & Pick<AgentSpec, 'name'> & Pick<Schemas['Update'],
  'force' | 'resourceVersion' | 'version' | 'refreshSkills'>;

/** A Kubernetes condition as we report it. */
export type Condition = Schemas['Condition'];

/** Who manages an agent: agent-manager's HelmRelease, a GitOps Kustomization, or nothing (a bare Agent CR). */
export type Managed = Schemas['Agent']['managed'];

/** The release behind an agent. */
export type HelmReleaseRef = Schemas['HelmReleaseRef'];

/** An agent as list_agents and get_agent report it. */
export type Agent = Schemas['Agent'];
export type AgentSummary = Schemas['AgentSummary'];
export type AgentList = Schemas['AgentList'];

/** The composed objects, as YAML for people and as values for programs. */
export type Manifests = Schemas['Manifests'];

export type SchemaSource = Schemas['SchemaSource'];
export type ValidateResult = Schemas['ValidateResult'];

/** One file a commit-mode write changes. */
export type CommitFile = Schemas['CommitFile'];
/** What a commit-mode write changed in git, and the pull request that proposes it. */
export type CommitInfo = Schemas['CommitInfo'];

export type CreateResult = Schemas['CreateResult'];
export type UpdateResult = Schemas['UpdateResult'];
export type DeleteResult = Schemas['DeleteResult'];

/** The operation that made a revision. */
export type RevisionOperation = Schemas['RevisionOperation'];
/** The curated fields of an agent as a revision keeps them: create_agent's arguments without name and namespace. */
export type RevisionSpec = Schemas['RevisionSpec'];
/**
 * One entry of list_agent_revisions. `revision: null` (with `current: true`) stands for
 * a live release changed outside agent-manager since its newest revision; `changed`
 * then lists what differs from that revision.
 */
export type RevisionEntry = Schemas['RevisionEntry'];
export type RevisionList = Schemas['RevisionList'];
/** get_agent_revision: the entry plus what the revision recorded and how it differs from the live agent. */
export type RevisionDetail = Schemas['RevisionDetail'];
/** rollback_agent: the update result, the revision it recorded and the one it went back to. */
export type RollbackResult = Schemas['RollbackResult'];

export type Verdict = Schemas['Verdict'];
export const Verdict = {
  Ready: 'ready',
  Progressing: 'progressing',
  Failed: 'failed',
  Unknown: 'unknown',
} as const satisfies Record<string, Verdict>;

export type ContainerStatus = Schemas['ContainerStatus'];
export type PodStatus = Schemas['PodStatus'];
export type EventSummary = Schemas['EventSummary'];
export type HistoryEntry = Schemas['HistoryEntry'];

/** get_agent_status: the gathered facts and the verdict folded from them. */
export type Status = Schemas['Status'];
/** wait_for_agent's answer: the Status when the wait ended, `timedOut` and `waitedSeconds`. */
export type WaitResult = Schemas['WaitResult'];

export type ModelConfig = Schemas['ModelConfig'];
export type Harness = Schemas['Harness'];
export type HarnessList = Schemas['HarnessList'];
/** plan_migration's answer: the expand plan of one namespace. */
export type MigrationPlan = Schemas['MigrationPlan'];
export type Plugin = Schemas['Plugin'];
export type ObjectStatus = Schemas['ObjectStatus'];
export type ChartLineInfo = Schemas['ChartLineInfo'];
export type ModelConfigList = Schemas['ModelConfigList'];

export type Skill = Schemas['Skill'];
export type SkillRepository = Schemas['SkillRepository'];
export type SkillsResult = Schemas['SkillsResult'];

export type ChartInfo = Schemas['ChartInfo'];
/**
 * Where reads are answered from, as get_info reports it. `off`: every read goes to the API
 * server (`--read-cache=false`); `syncing`: not every store has listed yet, and those reads
 * go to the API server; `ready`: reads are answered from the watch-fed cache; `degraded`:
 * some stores lost their watch for too long or hold too many objects, and their reads go
 * to the API server.
 */
export type ReadCacheInfo = Schemas['ReadCacheInfo'];
export type Info = Schemas['Info'];

/** One A2A conversation (context) with an agent. */
export type Session = Schemas['Session'];
/** The agent's answer to one message: one A2A task, its state and reply parts. */
export type Turn = Schemas['Turn'];
/** start_session's and send_message's answer. */
export type SessionTurn = Schemas['SessionTurn'];
export type SessionList = Schemas['SessionList'];
export type SessionDetail = Schemas['SessionDetail'];

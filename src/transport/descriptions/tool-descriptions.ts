/**
 * The words models and portal developers read: every operation's description and argument phrase, kept
 * as data so the operation table stays one screen per operation. MCP `tools/list` and the OpenAPI
 * document show them, so they say what a call reads or writes, validates and returns, and its guards.
 * The prefixes are frozen because clients match them: reads `Read-only.`, writes `WRITES:`, delete
 * `WRITES (destructive):`, validate_agent `Read-only dry run of create_agent`.
 */
import { SHIPPED_PRESETS } from '../../core/toolset/toolset-grammar.js';
import { LINE2_ARGUMENTS } from './line2-descriptions.js';
import { MIGRATION_ARGUMENTS, MIGRATION_TITLE, MIGRATION_TOOL } from './migration-descriptions.js';

const presets = SHIPPED_PRESETS.map((p) => `preset:${p}`).join(', ');

/** The commit-mode sentence every write tool ends with. */
const COMMIT_MODE =
  'With mode "commit" nothing is written to the cluster: the same change goes to the GitOps repository as a pull ' +
  'request ' +
  '(a GitOps-owned release is edited where its Flux Kustomization reads it; a new agent is laid out under ' +
  '<path>/agent-manager/), ' +
  'and the result carries commit: the repository, branch, files and pull request. dryRun with mode commit opens ' +
  'nothing and returns every file with its content.';

/** Long descriptions per MCP tool name. */
export const TOOL_DESCRIPTIONS = {
  get_info:
    'Read-only. Describes this agent-manager installation: version, the agent chart it composes (OCI URL, semver ' +
    'range, ' +
    'the values schema version and whether it came from the registry or the embedded fallback, with the last ' +
    'registry error), ' +
    'the default and managed namespaces, capabilities (skills is false when no skill repositories are configured; ' +
    'writesAsCaller is true when writes run as the calling user; commit is true when mode "commit" can open pull ' +
    'requests ' +
    'with the installation\'s GitHub App or token, and works with the caller\'s X-GitHub-Token either way), the ' +
    'identity mode, the discovered kagent and Flux API ' +
    'versions, the Flux intervals, the configured skill repositories and the toolset presets known here ' +
    '(presetsChecked: ' +
    'true when a toolset naming another preset is refused). Call it first. Writes nothing.',
  list_agents:
    'Read-only. Lists the agents of one namespace, merged from the kagent Agent CRs and the HelmReleases of the ' +
    'agent chart ' +
    '(an agent whose release has not rendered yet has exists: false). Each agent reports how it is managed: ' +
    'helmrelease ' +
    '(writable here), gitops (the release is applied by a Flux Kustomization; writes need force) or none (a bare ' +
    'Agent CR with ' +
    'no HelmRelease), its readiness (null when unknown), its model config, declared toolset (with toolsetProblem ' +
    'when the ' +
    'release declares one the chart refuses, such as []; implicitFullAccess: true for a release without one) and ' +
    'its release. ' +
    'An agent part of which could not be read carries error {code, message}, and warnings lists each such problem. ' +
    'Returns {"agents": [Agent], "warnings"?: [string]}. Writes nothing.',
  get_agent:
    'Read-only. Reads one agent by its technical name: the Agent CR, the HelmRelease that owns it (Flux provenance ' +
    'labels) and the release values, merged into one Agent with displayName, description, modelConfig, skills, ' +
    'toolset, readiness, conditions and managed (helmrelease, gitops or none), plus version (changes only when ' +
    'someone changes the agent, not when Flux writes status: the precondition to pass to the next write) and ' +
    'resourceVersion. Not found when neither an Agent nor a HelmRelease has that name. Writes nothing.',
  create_agent:
    'WRITES: creates an agent as a Flux HelmRelease of the agent chart in the namespace, plus the shared ' +
    'per-namespace ' +
    'OCIRepository of that chart when it does not exist yet (an existing one is reused). The caller chooses and ' +
    'confirms the ' +
    'technical name (a DNS-1123 label; never derive it from the display name). Requires modelConfig (an existing ' +
    'ModelConfig of ' +
    `the namespace, see list_model_configs) and toolset: the selectors that bound which of the gateway's tools the ` +
    `agent can use. Shipped presets: ${presets} (preset:none for a chat-only agent without tools, preset:full for ` +
    `the deliberate choice ` +
    'of every tool). Validates before writing: the name, the toolset grammar, skills (gitRefs from list_skills), ' +
    'the modelConfig, ' +
    'and the composed values against the chart values schema; only set fields are emitted so chart defaults apply. ' +
    'A preset ' +
    'the installation does not know is refused when get_info says presetsChecked, else noted; notes also flag a ' +
    'selector ' +
    'given twice and preset:none or preset:full beside other selectors. Every skill is pinned before it is written: ' +
    'a git ' +
    'branch or tag (none: the default branch) to its head commit through the GitHub API, an OCI tag (none: latest) ' +
    'to its ' +
    'manifest digest; reads show each pin beside the ref asked for. A ref that does not resolve is refused naming ' +
    'the skill; ' +
    'GitHub or the registry unreachable is a backend error. Refused ' +
    'with a conflict when a HelmRelease or a bare Agent CR of that name exists. Nothing is written on a refusal. ' +
    'Returns the ' +
    'agent (with its version), generation, the composed manifests, what was created and the first status. With ' +
    'dryRun the ' +
    'API server checks both writes too (admission, the CRD schema, RBAC) and nothing is stored: the answer carries ' +
    'dryRun: true and says what would be created. validate_agent checks without asking the API server. With wait ' +
    '(seconds) ' +
    'it answers once the agent is ready (rolled out at the generation written) or failed or the time is up, with ' +
    'the agent ' +
    'as read then and its status embedded with timedOut. ' +
    COMMIT_MODE,
  update_agent:
    "WRITES: changes an existing agent by merging the given fields into its HelmRelease's values (Flux then upgrades " +
    'the release). An absent field stays as it is; an empty string removes the value so the chart default applies ' +
    'again; skills, ' +
    'toolset, labels and annotations replace the whole value. The result is validated against the chart values ' +
    'schema and ' +
    'the modelConfig against the namespace before anything is written; a refused value the live release already ' +
    'carries in a field this update does not set is named as the live release\'s, with how to get past it (set ' +
    'that field in the same update, or rollback_agent). Guards: a GitOps-owned release (applied by a ' +
    'Flux ' +
    'Kustomization) or a suspended one is refused with a conflict unless force; a bare Agent CR without a ' +
    'HelmRelease has ' +
    'nothing to write to and is refused. Pass the version get_agent (or the last write) reported to refuse the write ' +
    '(conflict) when someone changed the agent since (Flux\'s status writes do not change it); without it the ' +
    'fields are ' +
    'merged into the newest values. dryRun runs everything ' +
    'and has the API server check the write without storing it. Returns the agent (with its new version), generation ' +
    '(pass it to wait_for_agent to wait for this change), the ' +
    'values before and after, the changed value paths and the composed manifests; nothing is written when nothing ' +
    'changed. ' +
    'With wait (seconds) it answers once the change has rolled out (ready for the generation written) or failed or ' +
    'the ' +
    'time is up, with the agent as read then, its status and timedOut. ' +
    'Skills given are pinned again (a branch or tag to its head commit, an OCI tag to its digest); without skills ' +
    'the pins ' +
    'stay, and refreshSkills re-pins every skill to the head of what it asked for. ' +
    COMMIT_MODE,
  delete_agent:
    'WRITES (destructive): deletes an agent by deleting its HelmRelease (Flux uninstalls the release and kagent ' +
    "removes the Agent and its Deployment), and the namespace's shared OCIRepository when no other HelmRelease " +
    'renders from it (otherwise it is kept and the result says why). Guards: a GitOps-owned or suspended release is ' +
    'refused with a conflict unless force (a forced delete of a suspended release deletes the Agent too, since Flux ' +
    'would leave it behind); a bare Agent CR without a HelmRelease is deleted only with force. Pass the version ' +
    'get_agent reported to delete only that version (conflict when it changed since). dryRun reports what would be ' +
    'deleted and kept, checked by the API server, and deletes nothing. Returns what was deleted. Cannot be undone. ' +
    COMMIT_MODE,
  get_agent_status:
    "Read-only. Reports an agent's health as a verdict (ready, progressing, failed or unknown) with one actionable " +
    'summary sentence, from the facts it gathers: the Agent CR conditions, the HelmRelease conditions and its last ' +
    'releases, the ' +
    'Deployment kagent runs, its pods and containers (waiting reasons, restarts) and recent Warning events. ready ' +
    'means the ' +
    'last change has rolled out, as kstatus and flux --wait judge it: helm-controller has observed the ' +
    'HelmRelease\'s ' +
    'generation (observedGeneration, and lastAttemptedGeneration, reached generation) with Ready True for it, ' +
    'kagent has ' +
    'observed the Agent\'s, and the Deployment\'s rollout is complete (no pod of an older template left); until ' +
    'then the ' +
    'verdict is progressing and the summary names the stage behind, and failed is only a failure of the current ' +
    'generation (a Warning event from before the release last succeeded is history, never the reason given). A ' +
    'suspended HelmRelease with a change Flux has not applied is failed with suspended: true and a summary that ' +
    'says to resume it. ' +
    'The Status carries generation and observedGeneration (the release\'s). Not found when ' +
    'neither an Agent nor a HelmRelease has that name. Writes nothing.',
  validate_agent:
    'Read-only dry run of create_agent (or, with update: true, of update_agent): runs every check the write would ' +
    'run and ' +
    'composes the manifests without writing anything. Create mode collects every problem: the name, a missing or ' +
    'malformed ' +
    'toolset, skills, a modelConfig that does not exist in the namespace, an existing HelmRelease or Agent of that ' +
    'name, and ' +
    'every values schema violation. Update mode merges the fields into the existing release the way update_agent ' +
    'would; the ' +
    'GitOps and suspended guards (unless force) and a missing agent are answered as errors. Returns valid, the ' +
    'mode, the errors, ' +
    'the schema version and source, the composed OCIRepository, HelmRelease and values, and notes on the toolset ' +
    '(an unknown ' +
    'preset, a repeated selector, preset:none or preset:full beside others). Skills are resolved as the write would ' +
    'pin ' +
    'them (refreshSkills as update_agent takes it), and skills reports each pin beside what was asked; a skill that ' +
    'does not ' +
    'resolve is one of the errors.',
  list_model_configs:
    'Read-only. Lists the kagent ModelConfigs of a namespace, sorted by name, with provider, model, whether kagent ' +
    'accepted them (null when unknown) and who manages them. create_agent and update_agent take one of these names ' +
    'as modelConfig. ModelConfigs are platform-admin owned: agent-manager only reads them. Writes nothing.',
  list_harnesses:
    'Read-only. Lists the Harnesses of a namespace (api.kagent.dev), sorted by name, with the runtime each provides ' +
    '(kagent, claude, codex, …) and whether it is Ready. create_agent and update_agent take one of these names as ' +
    'harness for agents of chart 2.x. Writes nothing.',
  list_skills:
    'Read-only. Discovers the skills in the configured GitHub skill repositories (a directory with a SKILL.md; name ' +
    'and description from its frontmatter) and returns them per repository and flattened, each with repoUrl, path ' +
    'and ref; ' +
    'create_agent takes one as the skills gitRef {url: repoUrl, path, ref} (repoUrl becomes url). Each repository ' +
    'also reports the commit its ref resolved to (the pin a create would write) and fetchedAt. Results are cached; ' +
    'refresh bypasses the cache. Unsupported when no skill ' +
    'repositories are configured. Reads GitHub, writes nothing.',
  list_agent_revisions:
    "Read-only. Lists an agent's recorded revisions, newest first: every create, update and rollback agent-manager " +
    'applied keeps one (the newest --revision-history-limit are kept). Each has its number, time, requestedBy, ' +
    'operation (create, ' +
    'update or rollback, with rolledBackTo), the changed value paths, the chart version and Helm status Flux ' +
    'reports for its ' +
    'values, and current: true on the revision the live release carries. A release changed outside agent-manager ' +
    'since its ' +
    'newest revision (kubectl edit, a GitOps commit) shows a first entry with revision: null and the paths that ' +
    'differ. ' +
    'Returns {"revisions": [...]}. Writes nothing.',
  get_agent_revision:
    "Read-only. Reads one revision of an agent: the list entry's fields plus the spec it recorded (displayName, " +
    'description, systemMessage, modelConfig, toolset, skills, runtime, iconUrl, labels, annotations), the values ' +
    'written, the manifests ' +
    'as create_agent returns them, skills (each pin it ran beside the ref it asked for), and diff: the value paths ' +
    'where the ' +
    'live agent differs from it (a changed pin shows as skills.gitRefs or skills.refs). Not found when the revision ' +
    'is not kept. Writes nothing.',
  rollback_agent:
    "WRITES: rolls an agent back to one of its revisions by applying that revision's spec as an update_agent would: " +
    'fields the revision did not have are cleared (but a revision without a toolset keeps the current one; one ' +
    'whose toolset reaches more than the current one says so in notes, naming both), the ' +
    'values are validated against the chart values schema in use now (a revision ' +
    'it refuses is refused with the violations) and the modelConfig against the namespace, and the same guards apply ' +
    '(GitOps-owned or suspended releases need force). Pass the version get_agent reported to refuse the rollback ' +
    '(conflict) when someone changed the agent since; dryRun checks everything, the API server included, and writes ' +
    'and ' +
    'records nothing. Skills come back pinned as the revision ran them (its commits and digests); refreshSkills ' +
    're-resolves them to the head of what they asked for instead. The rollback is recorded as a new revision with ' +
    'rolledBackTo. Returns ' +
    'the update result plus revision (the new one) and rolledBackTo; with wait (seconds) it answers once the ' +
    'rollback has ' +
    'rolled out or failed or the time is up, as update_agent does; nothing is written when the agent already has ' +
    'that ' +
    "revision's values. In commit mode no revision is recorded (the cluster is not written; once Flux applies the " +
    'merged pull request, list_agent_revisions shows it as a change made outside agent-manager). ' +
    COMMIT_MODE,
  wait_for_agent:
    'Read-only. Waits for an agent\'s rollout instead of polling get_agent_status: answers once the agent is ready ' +
    '(until: ready, the default: every controller has observed the current generation and the rollout is complete; a ' +
    'failed verdict of the current generation ends the wait early, with the reason in summary, as does a suspended ' +
    'release\'s change, which only resuming it rolls out) or once its ' +
    'HelmRelease ' +
    'and Agent are gone (until: deleted), or when timeoutSeconds (default 60, at most 600) are up. Returns the ' +
    'Status as ' +
    'get_agent_status does, plus timedOut (true when the time ran out first) and waitedSeconds. With a progress ' +
    'token it ' +
    'sends a progress notification, the summary as its message, whenever the verdict or summary changes. Pass the ' +
    'generation ' +
    'a write answered to wait for that change: never ready before the HelmRelease has reached it. Follows the agent ' +
    'on Kubernetes watches as the caller. Not found when neither the Agent nor its HelmRelease exists (until: ' +
    'ready). Writes nothing.',
  start_session:
    'WRITES: try an agent: starts a new conversation (an A2A context) with a ready agent through the kagent ' +
    'controller, sends the ' +
    'first message (at most 32000 characters) and answers {session, turn}: turn is the agent\'s answer (its A2A ' +
    'task: state, ' +
    'text, parts). Pass a requestId (at most 128 characters) to make a retry answer the same session instead of ' +
    'starting ' +
    'another (with replayed: true; the same requestId with another message is a conflict); ' +
    'sessionName (at most 200) names it. Waits at most timeoutSeconds (default 60, at most 600) for the ' +
    'turn: one ' +
    'still running then answers what arrived with complete: false, and get_session shows the rest. With a progress ' +
    'token ' +
    'each status update of a streaming agent is a progress notification. Conflict when the agent is not ready ' +
    '(wait_for_agent ' +
    'first). Spends the agent\'s model tokens; writes nothing to the cluster.',
  send_message:
    'WRITES: continues a session start_session opened: sends the message (at most 32000 characters) in the ' +
    'session\'s A2A context and ' +
    'answers {session, turn} as start_session does (the same timeoutSeconds and progress rules). Not found for a ' +
    'session ' +
    'you did not start. Spends the agent\'s model tokens.',
  list_sessions:
    'Read-only. The conversations you have with an agent (start_session), newest first, from the tasks the agent ' +
    'reports ' +
    'over A2A: per session its id, name, state of the last turn, number of turns and times.',
  get_session:
    'Read-only. One session and its A2A tasks (proto3 JSON: status, history, artifacts), oldest first, as the agent ' +
    'reports ' +
    'them. Not found for a session you did not start.',
  ...MIGRATION_TOOL,
} as const;

/** Short titles (MCP `title`, OpenAPI `summary`). */
export const TOOL_TITLES = {
  get_info: 'Describe the installation',
  list_agents: 'List agents',
  get_agent: 'Get an agent',
  create_agent: 'Create an agent',
  update_agent: 'Update an agent',
  delete_agent: 'Delete an agent',
  get_agent_status: "Get an agent's status",
  validate_agent: 'Validate an agent (dry run)',
  list_model_configs: 'List model configs',
  list_harnesses: 'List harnesses',
  list_skills: 'List skills',
  list_agent_revisions: "List an agent's revisions",
  get_agent_revision: 'Get an agent revision',
  rollback_agent: 'Roll an agent back to a revision',
  wait_for_agent: "Wait for an agent's rollout",
  start_session: 'Start a session with an agent',
  send_message: 'Send a message in a session',
  list_sessions: "List the caller's sessions with an agent",
  get_session: 'Read a session',
  ...MIGRATION_TITLE,
} as const;

/** Short phrases for the arguments. */
export const ARG = {
  organization: 'Organization of the workload cluster the agent runs on (with cluster); absent: the management ' +
    'cluster. Set, the HelmRelease <cluster>-<name> is in org-<organization> here; the agent is read there',
  cluster: 'Workload cluster the agent runs on (with organization): org-<organization>/<cluster>-kubeconfig must exist',
  organizationOfList: 'Organization whose workload clusters to list; with cluster: that one cluster, without: ' +
    'every cluster of it (an unreachable one adds a line to warnings)',
  namespace:
    "Namespace of the agent; default: the installation's kagent namespace (get_info reports the managed ones)",
  namespaceOfList: "Namespace to list; default: the installation's kagent namespace (get_info reports " +
    'the managed ones)',
  detailsOfList: 'true (default): every agent in full; false: one summary row per agent (names, workload cluster, ' +
    'model, toolset, readiness; no values, system message or conditions), for list pages',
  agentName: 'Agent name',
  technicalName: 'DNS-1123 technical name (max 63 chars): the HelmRelease and Agent name',
  modelConfig: 'Name of an existing kagent ModelConfig in the namespace (list_model_configs)',
  modelConfigUpdate:
    'Name of an existing kagent ModelConfig in the namespace (list_model_configs); it cannot be cleared',
  displayName: 'Human-readable name shown in the portal',
  description: 'What the agent is for, in a sentence',
  systemMessage: "The agent's system prompt",
  iconUrl: 'URL of an icon for the portal',
  runtime: 'Chart 0.x only: the agent runtime (chart default when unset); refused on chart 2.x, where the Harness is ' +
    'the runtime.',
  ...LINE2_ARGUMENTS,
  ...MIGRATION_ARGUMENTS,
  skills: 'Skills to mount: OCI refs and git refs (list_skills), plus the Secret holding git credentials',
  skillRefs:
    'OCI references of skill artifacts with the registry host, e.g. registry.example.io/skills/runbooks:1.4.0; a ' +
    'tag (none: ' +
    'latest) is resolved to its manifest digest and written as <host>/<repo>@sha256:<digest>',
  gitRefs: 'Git skill references; a skill list_skills reports becomes {url: repoUrl, path, ref}',
  gitRefUrl: 'Repository URL, e.g. https://github.com/giantswarm/agent-skills; from list_skills: {url: ' +
    'repoUrl, path, ref}',
  gitRefPath: 'Directory of the skill in the repository',
  gitRefRef: "Branch, tag or full commit id (default: the repository's default branch); a branch or tag is resolved " +
    'to its head commit and written pinned',
  gitRefCommit: 'A full commit id (40 or 64 hex) to pin to; give either ref or commit',
  refreshSkills:
    'Re-pin every skill: git skills to the head of the branch or tag they asked for (or the default branch; a ' +
    'commit asked for stays), OCI tags to their current digest. Without it the pins stay unless skills are given',
  gitRefName: 'Mount name; default: the last path segment, else the repository name',
  gitAuthSecretName: 'Secret in the namespace with credentials for private git skill repositories',
  toolsetCreate:
    `REQUIRED. Selectors bounding which of the gateway's tools the agent can use: preset:<name>, server:<name>, ` +
    `workflow:<name>, tool:<name> (at most 32, each visible ASCII of at most 137 characters). Shipped presets: ` +
    `${presets}; ["preset:none"] for an agent without tools`,
  toolsetUpdate:
    `Replaces the agent's whole toolset (an empty list is refused: use ["preset:none"] for an agent without tools). ` +
    `Selectors: preset:<name>, server:<name>, workflow:<name>, tool:<name>; shipped presets: ${presets}`,
  toolsetValidate:
    'The toolset to check (required for a create): preset:<name>, server:<name>, workflow:<name>, tool:<name> ' +
    'selectors',
  toolNames: 'Removed: refused with the reason; declare a toolset instead',
  labels: 'Extra labels for the agent (replace the whole map on update; {} removes them)',
  annotations: 'Extra annotations for the agent (replace the whole map on update; {} removes them)',
  mode: 'apply (default): write to the cluster; commit: open a pull request in the GitOps repository instead',
  gitopsRepository: 'Commit mode: the GitOps repository, owner/name (a GitOps-owned release uses its Kustomization\'s)',
  gitopsBranch: 'Commit mode: the base branch of the pull request',
  gitopsPath: 'Commit mode: the directory new agents are laid out below (<path>/agent-manager/)',
  forceUpdate: 'Write even when the HelmRelease is GitOps-owned or suspended',
  forceDelete:
    'Delete even when the HelmRelease is GitOps-owned or suspended, or when only a bare Agent CR exists',
  forceValidate: 'With update: check as if force were passed to update_agent',
  dryRunCreate: 'Run every check and have the API server check the writes (dryRun=All) without storing anything',
  dryRunUpdate: 'Run every check and have the API server check the write (dryRun=All) without storing anything',
  dryRunDelete: 'Report what would be deleted and kept, checked by the API server (dryRun=All), without deleting',
  resourceVersion:
    'The resourceVersion a read reported (get_agent, list_agents), compared strictly: refused with a conflict after ' +
    'any ' +
    'write to the HelmRelease since, a controller\'s status write included. To chain writes, pass version instead',
  version:
    'The version a read or a write reported (get_agent, list_agents, every write result): refused with a conflict ' +
    'when ' +
    'someone changed the agent since (its HelmRelease\'s spec, labels or annotations); Flux\'s status writes do not ' +
    'change it',
  update: 'Dry-run update_agent against the existing agent instead of create_agent',
  repository: 'A GitHub repository URL to read instead of the configured ones',
  ref: 'Branch, tag or commit to read; default: the repository default branch',
  refresh: 'Bypass the cache and read GitHub again',
  revision: 'Revision number (list_agent_revisions)',
  rollbackRevision: 'The revision to go back to (list_agent_revisions)',
  forceRollback: 'Write even when the HelmRelease is GitOps-owned or suspended',
  wait:
    'Seconds (0-600, default 0: answer at once) to wait for the rollout; the answer then embeds the Status when the ' +
    'agent ' +
    'was ready or failed or the time was up, with timedOut and waitedSeconds. Not with dryRun or mode commit',
  until: 'ready (default): until the agent is ready, or has failed; deleted: until its HelmRelease and Agent are gone',
  timeoutSeconds: 'How long to wait, in whole seconds from 1 to 600; default 60',
  generation:
    'The generation a write answered: not ready before the HelmRelease has reached at least it and helm-controller ' +
    'has ' +
    'observed it, so a wait cannot end on the state before the change',
  dryRunRollback: 'Run every check and have the API server check the write (dryRun=All) without storing it or ' +
    'recording a revision',
  sessionMessage: 'What to say to the agent; at most 32000 characters',
  requestId: 'Idempotency key (at most 128 characters): the same requestId with the same message answers the same ' +
    'session (replayed: true); with another message it is a conflict',
  sessionName: 'A name for the session (at most 200 characters)',
  sessionId: 'The session.id start_session or list_sessions answered',
  turnTimeoutSeconds: 'How long to wait for the turn, in whole seconds from 1 to 600; default 60 (then ' +
    'complete: false)',
} as const;

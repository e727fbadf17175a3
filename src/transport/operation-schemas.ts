/**
 * The input schemas: one strict zod object per operation that both transports use (MCP's inputSchema
 * and argument check, REST's merged path, query and body), so an unknown field is refused on both.
 * They check shapes only: every rule with a text clients compare (name and toolset grammar, `toolNames`,
 * skills, chart violations) is the service's, so the words are the same on both transports. Hence
 * `toolset` is optional here even on create, and `runtime` lists its values without enforcing them
 * (the chart schema is the authority; validate_agent reports it as a violation).
 */
import { z } from 'zod';
import type { operations } from '../core/openapi.generated.js';
import type { Schemas } from '../core/types.js';
import { WAIT_DEFAULT_SECONDS, WAIT_MAX_SECONDS } from '../core/status/wait-rules.js';
import { MAX_REVISION } from '../core/revisions/revision-schema.js';
import { ARG } from './descriptions/tool-descriptions.js';

const namespace = z.string().describe(ARG.namespace).optional();
/** Where the agent runs (both or neither: the service refuses one without the other in its own words). */
const target = {
  organization: z.string().describe(ARG.organization).optional(), cluster: z.string().describe(ARG.cluster).optional(),
};
const agentName = z.string().describe(ARG.agentName);
const technicalName = z.string().describe(ARG.technicalName);
const text = (description: string) => z.string().describe(description).optional();
const stringMap = (description: string) => z.record(z.string(), z.string()).describe(description).optional();
const flag = (description: string) => z.boolean().describe(description).optional();

/** A git skill reference. */
export const gitRefSchema = z
  .object({
    url: z.string().describe(ARG.gitRefUrl),
    path: text(ARG.gitRefPath),
    ref: text(ARG.gitRefRef),
    commit: text(ARG.gitRefCommit),
    name: text(ARG.gitRefName),
  })
  .strict();

/** The skills block. */
export const skillsSchema = z
  .object({
    refs: z.array(z.string()).describe(ARG.skillRefs).optional(),
    gitRefs: z.array(gitRefSchema).describe(ARG.gitRefs).optional(),
    gitAuthSecretName: text(ARG.gitAuthSecretName),
  })
  .strict();

/** A plugin of chart 2.x: a pinned source and the skills to enable (the service checks the rules in its words). */
export const pluginSchema = z
  .object({
    git: z.object({ url: z.string().describe(ARG.pluginGitUrl), commit: z.string().describe(ARG.pluginGitCommit) })
      .strict().optional(),
    oci: text(ARG.pluginOci),
    path: text(ARG.pluginPath),
    skills: z.array(z.string()).describe(ARG.pluginSkills),
  })
  .strict();

/** The fields create, update and validate share, each with the phrase for its operation. */
function agentFields(toolset: string, modelConfig: string) {
  return {
    displayName: text(ARG.displayName),
    description: text(ARG.description),
    systemMessage: text(ARG.systemMessage),
    modelConfig: text(modelConfig),
    iconUrl: text(ARG.iconUrl),
    runtime: z.string().meta({ description: ARG.runtime, enum: ['go', 'python'] }).optional(),
    harness: text(ARG.harness),
    plugins: z.array(pluginSchema).describe(ARG.plugins).optional(),
    requireApproval: flag(ARG.requireApproval),
    egress: z.array(z.string()).describe(ARG.egress).optional(),
    gitAuthSecretName: text(ARG.agentGitAuthSecretName),
    skills: skillsSchema.describe(ARG.skills).optional(),
    toolset: z.array(z.string()).describe(toolset).optional(),
    toolNames: z.array(z.string()).describe(ARG.toolNames).optional(),
    labels: stringMap(ARG.labels),
    annotations: stringMap(ARG.annotations),
  };
}

/** How a write is carried out (commit mode: a pull request in the GitOps repository). */
const commitFields = {
  mode: z.enum(['apply', 'commit']).describe(ARG.mode).optional(),
  repository: text(ARG.gitopsRepository),
  branch: text(ARG.gitopsBranch),
  path: text(ARG.gitopsPath),
};

export const getInfoInput = z.object({}).strict();

export const listAgentsInput = z
  .object({
    namespace: z.string().describe(ARG.namespaceOfList).optional(), details: flag(ARG.detailsOfList),
    organization: z.string().describe(ARG.organizationOfList).optional(), cluster: target.cluster,
  })
  .strict();

export const agentRefInput = z.object({ name: agentName, namespace, ...target }).strict();

/** The precondition of update and delete: REST sends it as `If-Match`, MCP as this argument. */
const resourceVersion = text(ARG.resourceVersion);
const version = text(ARG.version);

/**
 * Whole seconds in a range. The range is the service's to refuse, in words that name it,
 * so the check here takes any number; the JSON Schema still states the whole range
 * (integer, bounds, default), as api/openapi.yaml does, so a client or model that builds
 * arguments from the tool's inputSchema sees it.
 */
const seconds = (description: string, minimum: number, fallback: number) =>
  z.number().describe(description).meta({ type: 'integer', minimum, maximum: WAIT_MAX_SECONDS, default: fallback })
    .optional();
const waitSeconds = seconds(ARG.wait, 0, 0);
const timeoutSeconds = seconds(ARG.timeoutSeconds, 1, WAIT_DEFAULT_SECONDS);

export const createAgentInput = z
  .object({
    name: technicalName,
    namespace,
    ...target,
    ...agentFields(ARG.toolsetCreate, ARG.modelConfig),
    modelConfig: z.string().describe(ARG.modelConfig),
    dryRun: flag(ARG.dryRunCreate),
    wait: waitSeconds,
    ...commitFields,
  })
  .strict();

export const updateAgentInput = z
  .object({
    name: agentName,
    namespace,
    ...target,
    ...agentFields(ARG.toolsetUpdate, ARG.modelConfigUpdate),
    force: flag(ARG.forceUpdate),
    dryRun: flag(ARG.dryRunUpdate),
    refreshSkills: flag(ARG.refreshSkills),
    resourceVersion,
    version,
    wait: waitSeconds,
    ...commitFields,
  })
  .strict();

export const deleteAgentInput = z
  .object({
    name: agentName, namespace, ...target, force: flag(ARG.forceDelete), dryRun: flag(ARG.dryRunDelete),
    resourceVersion, version, ...commitFields,
  })
  .strict();

export const validateAgentInput = z
  .object({
    name: technicalName,
    namespace,
    ...target,
    ...agentFields(ARG.toolsetValidate, ARG.modelConfig),
    update: flag(ARG.update),
    force: flag(ARG.forceValidate),
    refreshSkills: flag(ARG.refreshSkills),
  })
  .strict();

const revisionNumber = (description: string) => z.number().int().min(1).max(MAX_REVISION).describe(description);

export const listAgentRevisionsInput = agentRefInput;

export const getAgentRevisionInput = z
  .object({ name: agentName, namespace, ...target, revision: revisionNumber(ARG.revision) })
  .strict();

export const rollbackAgentInput = z
  .object({
    name: agentName,
    namespace,
    ...target,
    revision: revisionNumber(ARG.rollbackRevision),
    force: flag(ARG.forceRollback),
    dryRun: flag(ARG.dryRunRollback),
    refreshSkills: flag(ARG.refreshSkills),
    resourceVersion,
    version,
    wait: waitSeconds,
    ...commitFields,
  })
  .strict();

export const waitForAgentInput = z
  .object({
    name: agentName,
    namespace,
    ...target,
    until: z.enum(['ready', 'deleted']).describe(ARG.until).optional(),
    timeoutSeconds,
    // The range is the service's to refuse in its own words; the JSON Schema states it.
    generation: z.number().describe(ARG.generation).meta({ type: 'integer', minimum: 1 }).optional(),
  })
  .strict();

export const listModelConfigsInput = z
  .object({ namespace: z.string().describe(ARG.namespaceOfList).optional(), ...target })
  .strict();

export const listHarnessesInput = z
  .object({ namespace: z.string().describe(ARG.namespaceOfList).optional(), ...target })
  .strict();

export const planMigrationInput = z
  .object({ namespace: text(ARG.migrationNamespace), dryRun: flag(ARG.migrationDryRun) })
  .strict();

export const listSkillsInput = z
  .object({ repository: text(ARG.repository), ref: text(ARG.ref), refresh: flag(ARG.refresh) })
  .strict();

// The session tools: the message is the service's to require and bound (one text on both surfaces).
const sessionMessage = text(ARG.sessionMessage);
const turnTimeoutSeconds = seconds(ARG.turnTimeoutSeconds, 1, WAIT_DEFAULT_SECONDS);

export const startSessionInput = z
  .object({
    name: agentName, namespace, message: sessionMessage, requestId: text(ARG.requestId),
    sessionName: text(ARG.sessionName),
    timeoutSeconds: turnTimeoutSeconds,
  })
  .strict();

export const sendMessageInput = z
  .object({
    name: agentName, namespace, sessionId: z.string().describe(ARG.sessionId), message: sessionMessage,
    timeoutSeconds: turnTimeoutSeconds,
  })
  .strict();

// The session tools talk to the agent where the installation's kagent controller serves it: no
// organization or cluster (as the original's session tools), so none is taken and then ignored.
export const listSessionsInput = z.object({ name: agentName, namespace }).strict();

export const getSessionInput = z
  .object({ name: agentName, namespace, sessionId: z.string().describe(ARG.sessionId) })
  .strict();

export type CreateAgentInput = z.output<typeof createAgentInput>;
export type UpdateAgentInput = z.output<typeof updateAgentInput>;
export type ValidateAgentInput = z.output<typeof validateAgentInput>;

/** The string fields of a Spec that `SpecToUpdate` turns into changes when non-empty. */
export const SPEC_STRING_FIELDS = [
  'displayName', 'description', 'systemMessage', 'modelConfig', 'iconUrl', 'runtime',
] as const satisfies readonly (keyof ValidateAgentInput)[];

// The input schemas and api/openapi.yaml's request bodies, checked by the compiler: a body
// the document allows is accepted, the schema accepts no field the document lacks, and
// every documented field is read. Two differences are on purpose (see the top of this
// file): `runtime` advertises its values without enforcing them, so it is compared apart;
// the document requires a toolset on create, which the schema leaves to the service.
type Assert<T extends true> = T;
type Assignable<A, B> = [A] extends [B] ? true : false;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Body<T> = Omit<T, 'runtime'>;
type ToolsetGiven = { toolset: string[] };
/** PATCH and the rollback POST take the agent from the path. */
type PathParams = operations['updateAgent']['parameters']['path'];

export type InputsMatchDocumentedBodies = [
  Assert<Assignable<Schemas['Spec'], z.input<typeof createAgentInput>>>,
  Assert<Assignable<Body<z.input<typeof createAgentInput>> & ToolsetGiven, Body<Schemas['Spec']>>>,
  Assert<SameKeys<z.input<typeof createAgentInput>, Schemas['Spec']>>,
  Assert<Assignable<Schemas['Update'] & PathParams, z.input<typeof updateAgentInput>>>,
  Assert<Assignable<Body<z.input<typeof updateAgentInput>>, Body<Schemas['Update']>>>,
  Assert<SameKeys<z.input<typeof updateAgentInput>, Schemas['Update']>>,
  Assert<Assignable<Schemas['ValidateRequest'], z.input<typeof validateAgentInput>>>,
  Assert<Assignable<Body<z.input<typeof validateAgentInput>>, Body<Schemas['ValidateRequest']>>>,
  Assert<SameKeys<z.input<typeof validateAgentInput>, Schemas['ValidateRequest']>>,
  Assert<Assignable<Schemas['AgentFields']['runtime'], z.input<typeof createAgentInput>['runtime']>>,
  Assert<Assignable<Schemas['RollbackRequest'] & PathParams, z.input<typeof rollbackAgentInput>>>,
  Assert<Assignable<z.input<typeof rollbackAgentInput>, Schemas['RollbackRequest']>>,
  Assert<SameKeys<z.input<typeof rollbackAgentInput>, Schemas['RollbackRequest']>>,
  Assert<Assignable<Schemas['StartSessionRequest'] & PathParams, z.input<typeof startSessionInput>>>,
  Assert<SameKeys<Omit<z.input<typeof startSessionInput>, keyof PathParams>, Schemas['StartSessionRequest']>>,
  Assert<Assignable<Schemas['SendMessageRequest'] & PathParams & { sessionId: string },
    z.input<typeof sendMessageInput>>>,
  Assert<SameKeys<Omit<z.input<typeof sendMessageInput>, keyof PathParams | 'sessionId'>,
    Schemas['SendMessageRequest']>>,
];

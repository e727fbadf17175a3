/**
 * The operation table: each operation's MCP name, title, description and annotations, REST method,
 * path and status, one zod input schema and `run`, which calls the AgentService. REST routes and MCP
 * tools are generated from it alone, so the surfaces cannot drift; a parity test holds it and
 * api/openapi.yaml equal. The one deliberate difference lives here: REST validate with `update: true`
 * reads `""` as unset (it cannot clear), while MCP binds arguments as given (`rest.adapt`).
 */
import type { z } from 'zod';
import type { AgentService } from '../service/agent-service.js';
import type { RequestContext } from '../identity/caller.js';
import type {
  Agent, AgentList, CreateResult, DeleteResult, HarnessList, Info, MigrationPlan, ModelConfig, RevisionDetail,
  RevisionEntry, RollbackResult, Session, SessionDetail, SessionList, SessionTurn, SkillsResult, Status, Turn,
  UpdateResult, ValidateResult, WaitResult,
} from '../core/types.js';
import type { operations } from '../core/openapi.generated.js';
import { TOOL_DESCRIPTIONS, TOOL_TITLES } from './descriptions/tool-descriptions.js';
import {
  agentRefInput, createAgentInput, deleteAgentInput, getAgentRevisionInput, getInfoInput, listAgentRevisionsInput,
  listAgentsInput, listHarnessesInput, listModelConfigsInput, listSkillsInput, planMigrationInput, rollbackAgentInput,
  SPEC_STRING_FIELDS, updateAgentInput, validateAgentInput, waitForAgentInput, type ValidateAgentInput,
  getSessionInput, listSessionsInput, sendMessageInput, startSessionInput,
} from './operation-schemas.js';

/** The service methods the table calls; a structural type so tests can pass a fake. */
export type OperationService = Pick<
  AgentService,
  | 'getInfo' | 'listAgents' | 'getAgent' | 'createAgent' | 'updateAgent' | 'deleteAgent' | 'getAgentStatus'
  | 'validateAgent' | 'listModelConfigs' | 'listHarnesses' | 'listSkills' | 'listAgentRevisions' | 'getAgentRevision'
  | 'rollbackAgent'
  | 'waitForAgent' | 'waitStart' | 'followAgentStatus'
  | 'startSession' | 'sendMessage' | 'listSessions' | 'getSession' | 'planMigration'
>;

/** The MCP tool names (frozen external names; muster shows them as `x_agent-manager_<tool>`). */
export type ToolName = keyof typeof TOOL_DESCRIPTIONS;

/** The four MCP tool hints, always all set (MCP tool annotations: readOnlyHint, destructiveHint, idempotentHint,
 * openWorldHint). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * How an input field is read from the query string. Booleans are `true` or `false`, any case
 * (a dry run also `All`); integers are whole numbers in decimal; anything else is a 400
 * naming the parameter.
 */
export type QueryParamType = 'string' | 'boolean' | 'integer';

/** The REST half of an operation. */
export interface RestBinding<I = Record<string, unknown>, R = unknown> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Express 5 path below /api/v1; `:param`s are input fields of the same name. */
  path: string;
  /** The success status. */
  status: 200 | 201;
  /** The status of a result that differs from `status` (a dry run of a create is 200: nothing was created). */
  statusOf?(result: R): 200 | 201;
  /** True when the `If-Match` header carries the `version` precondition (RFC 9110 strong ETag). */
  ifMatch?: boolean;
  /**
   * True on a create: `If-Match` is evaluated although nothing of that name exists yet
   * (RFC 9110 §13.1.1), so any If-Match is a 412 there and nothing is written.
   */
  createIfMatch?: boolean;
  /** True when the operation reads the caller's GitHub token from `X-GitHub-Token` (commit mode). */
  githubToken?: boolean;
  /** The strong ETag of a result (an agent's `version`), sent as the `ETag` header. */
  etag?(result: R): string | undefined;
  /** The URL path of what a 201 created, sent as the `Location` header (RFC 9110 §15.3.2). */
  location?(result: R): string | undefined;
  /**
   * True on the status route: with `?watch=true` (and `timeoutSeconds`) it answers a
   * text/event-stream of the agent's status instead of one JSON body (rest/status-stream.ts).
   */
  watch?: boolean;
  /**
   * On the session turns: with `Accept: text/event-stream` the turn is answered as a
   * server-sent event stream of its updates (rest/turn-stream.ts), by running this. Each update
   * comes with the `Location` the answer will have (where it has one), since the stream's
   * headers go out with the first update, before the answer.
   */
  turnStream?(
    service: OperationService, ctx: RequestContext, input: I, onUpdate: (turn: Turn, location?: string) => void,
  ): Promise<R>;
  /**
   * On a route whose GET waits (wait_for_agent): what a HEAD runs instead, once. HEAD produces no
   * content (RFC 9110 §9.3.2), so it answers what decides the status code and does not hold the
   * connection for the wait's timeout, as `HEAD …/status?watch=true` ends after the first status.
   */
  head?(service: OperationService, ctx: RequestContext, input: I): Promise<unknown>;
  /** Query parameters bound to input fields of the same name. */
  query?: Readonly<Record<string, QueryParamType>>;
  /** Path parameters that are whole numbers (the others are strings). */
  params?: Readonly<Record<string, 'integer'>>;
  /** True when the operation reads a JSON body (which is then required). */
  body?: boolean;
  /** Turns the parsed REST input into the operation input (applied after schema parsing). */
  adapt?(input: I): I;
}

/**
 * One operation. Input on REST: the body, the query and the path parameters together; a
 * field given in both the body and the query must have the same value there (else a 400).
 */
export interface Operation<S extends z.ZodObject = z.ZodObject, R = unknown> {
  tool: ToolName;
  title: string;
  description: string;
  annotations: ToolHints;
  rest: RestBinding<z.output<S>, R>;
  input: S;
  /**
   * Arguments the contract requires that `input` leaves optional, because the service
   * refuses their absence in its own words (the same text on both surfaces); the MCP
   * input schema lists them as required, as the OpenAPI request body does.
   */
  serviceRequired?: readonly string[];
  // Method syntax on purpose: the table holds operations of different input types.
  run(service: OperationService, ctx: RequestContext, input: z.output<S>): Promise<R>;
}

/** Any operation of the table. */
export type AnyOperation = Operation<z.ZodObject, unknown>;

/** Write results say `dryRun: true` when nothing was stored. */
const isDryRun = (result: { dryRun?: boolean }): boolean => result.dryRun === true;
const isCommit = (result: { mode?: string }): boolean => result.mode === 'commit';
/** The agent's version after a write, the ETag of its answer (RFC 9110 §8.8.3: the tag of the resulting state). */
const versionAfter = (result: { agent?: Agent }): string | undefined => result.agent?.version;
const agentPath = (agent: Agent): string =>
  `/api/v1/agents/${encodeURIComponent(agent.namespace)}/${encodeURIComponent(agent.name)}`;

// The hints per tool: [readOnly, destructive, idempotent, openWorld].
const hints = (
  readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean, openWorldHint: boolean,
): ToolHints => ({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint });
const CLOSED_READ = hints(true, false, false, false);
/** The workload cluster of an agent, on every agent route (a query and a body that disagree are a 400). */
const TARGET = { organization: 'string', cluster: 'string' } as const;
const OPEN_READ = hints(true, false, false, true);

function op<S extends z.ZodObject, R>(o: Omit<Operation<S, R>, 'title' | 'description'>): Operation<S, R> {
  return { ...o, title: TOOL_TITLES[o.tool], description: TOOL_DESCRIPTIONS[o.tool] };
}

/**
 * The Go service's `SpecToUpdate`: every non-empty string of the Spec becomes a change
 * and an empty one means "not given"; lists and maps that are present are changes.
 */
export function specToUpdate(input: ValidateAgentInput): ValidateAgentInput {
  if (input.update !== true) return input;
  const out: ValidateAgentInput = { ...input };
  for (const field of SPEC_STRING_FIELDS) if (out[field] === '') delete out[field];
  return out;
}

export const getInfo = op<typeof getInfoInput, Info>({
  tool: 'get_info', annotations: CLOSED_READ, input: getInfoInput,
  rest: { method: 'get', path: '/info', status: 200 },
  run: (service, ctx) => service.getInfo(ctx),
});

export const listAgents = op<typeof listAgentsInput, AgentList>({
  tool: 'list_agents', annotations: CLOSED_READ, input: listAgentsInput,
  rest: { method: 'get', path: '/agents', status: 200, query: { namespace: 'string', details: 'boolean', ...TARGET } },
  run: (service, ctx, input) => service.listAgents(ctx, input),
});

export const getAgent = op<typeof agentRefInput, Agent>({
  tool: 'get_agent', annotations: CLOSED_READ, input: agentRefInput,
  rest: { method: 'get', path: '/agents/:namespace/:name', status: 200, query: TARGET, etag: (agent) => agent.version },
  run: (service, ctx, input) => service.getAgent(ctx, input),
});

export const createAgent = op<typeof createAgentInput, CreateResult>({
  tool: 'create_agent', annotations: hints(false, false, false, true), input: createAgentInput,
  serviceRequired: ['toolset'],
  rest: {
    method: 'post', path: '/agents', status: 201, body: true,
    query: { dryRun: 'boolean', mode: 'string', repository: 'string', branch: 'string', path: 'string', ...TARGET },
    // A dry run or a commit-mode answer created nothing on the cluster.
    statusOf: (result) => (isDryRun(result) || isCommit(result) ? 200 : 201),
    etag: (result) => (isDryRun(result) || isCommit(result) ? undefined : versionAfter(result)),
    location: (result) => (isDryRun(result) || isCommit(result) ? undefined : agentPath(result.agent)),
    githubToken: true, createIfMatch: true,
  },
  run: (service, ctx, input) => service.createAgent(ctx, input),
});

export const updateAgent = op<typeof updateAgentInput, UpdateResult>({
  tool: 'update_agent', annotations: hints(false, true, false, true), input: updateAgentInput,
  rest: {
    method: 'patch', path: '/agents/:namespace/:name', status: 200, body: true,
    query: {
      force: 'boolean', dryRun: 'boolean', refreshSkills: 'boolean', mode: 'string', repository: 'string',
      branch: 'string', path: 'string', ...TARGET,
    },
    ifMatch: true, githubToken: true, etag: versionAfter,
  },
  run: (service, ctx, input) => service.updateAgent(ctx, input),
});

export const deleteAgent = op<typeof deleteAgentInput, DeleteResult>({
  tool: 'delete_agent', annotations: hints(false, true, false, false), input: deleteAgentInput,
  rest: {
    method: 'delete', path: '/agents/:namespace/:name', status: 200,
    query: { force: 'boolean', dryRun: 'boolean', mode: 'string', repository: 'string', branch: 'string',
      path: 'string', ...TARGET },
    ifMatch: true, githubToken: true,
  },
  run: (service, ctx, input) => service.deleteAgent(ctx, input),
});

export const getAgentStatus = op<typeof agentRefInput, Status>({
  tool: 'get_agent_status', annotations: CLOSED_READ, input: agentRefInput,
  rest: { method: 'get', path: '/agents/:namespace/:name/status', status: 200, watch: true, query: TARGET },
  run: (service, ctx, input) => service.getAgentStatus(ctx, input),
});

export const validateAgent = op<typeof validateAgentInput, ValidateResult>({
  tool: 'validate_agent', annotations: OPEN_READ, input: validateAgentInput,
  rest: { method: 'post', path: '/agents/validate', status: 200, body: true, adapt: specToUpdate },
  run: (service, ctx, input) => {
    const { update, force, ...spec } = input;
    if (update === true) return service.validateAgent(ctx, { mode: 'update', update: { ...spec, force } });
    // A missing modelConfig is one of the violations the create dry run reports.
    return service.validateAgent(ctx, { mode: 'create', spec: { ...spec, modelConfig: spec.modelConfig ?? '' } });
  },
});

export const listModelConfigs = op<typeof listModelConfigsInput, { modelConfigs: ModelConfig[] }>({
  tool: 'list_model_configs', annotations: CLOSED_READ, input: listModelConfigsInput,
  rest: { method: 'get', path: '/modelconfigs', status: 200, query: { namespace: 'string', ...TARGET } },
  run: (service, ctx, input) => service.listModelConfigs(ctx, input),
});

export const listHarnesses = op<typeof listHarnessesInput, HarnessList>({
  tool: 'list_harnesses', annotations: CLOSED_READ, input: listHarnessesInput,
  rest: { method: 'get', path: '/harnesses', status: 200, query: { namespace: 'string', ...TARGET } },
  run: (service, ctx, input) => service.listHarnesses(ctx, input),
});

export const listSkills = op<typeof listSkillsInput, SkillsResult>({
  tool: 'list_skills', annotations: OPEN_READ, input: listSkillsInput,
  rest: {
    method: 'get', path: '/skills', status: 200, query: { repository: 'string', ref: 'string', refresh: 'boolean' },
  },
  run: (service, ctx, input) => service.listSkills(ctx, input),
});

export const listAgentRevisions = op<typeof listAgentRevisionsInput, { revisions: RevisionEntry[] }>({
  tool: 'list_agent_revisions', annotations: CLOSED_READ, input: listAgentRevisionsInput,
  rest: { method: 'get', path: '/agents/:namespace/:name/revisions', status: 200, query: TARGET },
  run: (service, ctx, input) => service.listAgentRevisions(ctx, input),
});

export const getAgentRevision = op<typeof getAgentRevisionInput, RevisionDetail>({
  tool: 'get_agent_revision', annotations: CLOSED_READ, input: getAgentRevisionInput,
  rest: { method: 'get', path: '/agents/:namespace/:name/revisions/:revision', status: 200,
    params: { revision: 'integer' }, query: TARGET },
  run: (service, ctx, input) => service.getAgentRevision(ctx, input),
});

// A write like update_agent: it replaces the agent's values (destructive of the live state).
export const rollbackAgent = op<typeof rollbackAgentInput, RollbackResult>({
  tool: 'rollback_agent', annotations: hints(false, true, false, true), input: rollbackAgentInput,
  rest: {
    method: 'post', path: '/agents/:namespace/:name/rollback', status: 200, body: true,
    query: {
      force: 'boolean', dryRun: 'boolean', refreshSkills: 'boolean', mode: 'string', repository: 'string',
      branch: 'string', path: 'string', ...TARGET,
    },
    ifMatch: true, githubToken: true, etag: versionAfter,
  },
  run: (service, ctx, input) => service.rollbackAgent(ctx, input),
});

// Read-only: it watches and answers a Status; it may take up to timeoutSeconds.
export const waitForAgent = op<typeof waitForAgentInput, WaitResult>({
  tool: 'wait_for_agent', annotations: CLOSED_READ, input: waitForAgentInput,
  rest: { method: 'get', path: '/agents/:namespace/:name/wait', status: 200,
    query: { until: 'string', timeoutSeconds: 'integer', generation: 'integer', ...TARGET },
    head: (service, ctx, input) => service.waitStart(ctx, input) },
  run: (service, ctx, input) => service.waitForAgent(ctx, input),
});

// The session tools: the turns spend the agent's model tokens (a write, open-world: the
// agent may act through its tools); the reads ask the agent, and change nothing.
// A turn's answer or, before it, one of its updates: the session is known before the first update.
const sessionPath = ({ session }: { session: Pick<Session, 'id' | 'agent'> }): string =>
  `/api/v1/agents/${encodeURIComponent(session.agent.namespace)}/` +
  `${encodeURIComponent(session.agent.name)}/sessions/${encodeURIComponent(session.id)}`;

export const startSession = op<typeof startSessionInput, SessionTurn>({
  tool: 'start_session', annotations: hints(false, false, false, true), input: startSessionInput,
  serviceRequired: ['message'],
  rest: {
    method: 'post', path: '/agents/:namespace/:name/sessions', status: 201, body: true,
    query: { timeoutSeconds: 'integer' },
    location: sessionPath,
    turnStream: (service, ctx, input, onUpdate) =>
      service.startSession(ctx, input, (turn, session) => onUpdate(turn, sessionPath({ session }))),
  },
  run: (service, ctx, input) => service.startSession(ctx, input),
});

export const sendMessage = op<typeof sendMessageInput, SessionTurn>({
  tool: 'send_message', annotations: hints(false, false, false, true), input: sendMessageInput,
  serviceRequired: ['message'],
  rest: { method: 'post', path: '/agents/:namespace/:name/sessions/:sessionId/messages', status: 200, body: true,
    query: { timeoutSeconds: 'integer' },
    turnStream: (service, ctx, input, onUpdate) => service.sendMessage(ctx, input, (turn) => onUpdate(turn)),
  },
  run: (service, ctx, input) => service.sendMessage(ctx, input),
});

export const listSessions = op<typeof listSessionsInput, SessionList>({
  tool: 'list_sessions', annotations: CLOSED_READ, input: listSessionsInput,
  rest: { method: 'get', path: '/agents/:namespace/:name/sessions', status: 200 },
  run: (service, ctx, input) => service.listSessions(ctx, input),
});

export const getSession = op<typeof getSessionInput, SessionDetail>({
  tool: 'get_session', annotations: CLOSED_READ, input: getSessionInput,
  rest: { method: 'get', path: '/agents/:namespace/:name/sessions/:sessionId', status: 200 },
  run: (service, ctx, input) => service.getSession(ctx, input),
});

export const planMigration = op<typeof planMigrationInput, MigrationPlan>({
  tool: 'plan_migration', annotations: CLOSED_READ, input: planMigrationInput,
  rest: { method: 'post', path: '/migrations', status: 200, query: { namespace: 'string', dryRun: 'boolean' } },
  run: (service, ctx, input) => service.planMigration(ctx, input),
});

/**
 * The table, in the Go service's tool order, then the history operations. Express matches routes in this order too:
 * `POST /agents/validate` has no `:name` sibling, so no route shadows another.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  getInfo, listAgents, getAgent, createAgent, updateAgent, deleteAgent, getAgentStatus, validateAgent,
  listModelConfigs, listHarnesses, listSkills, listAgentRevisions, getAgentRevision, rollbackAgent, waitForAgent,
  startSession, sendMessage, listSessions, getSession, planMigration,
];

/** The operation of an MCP tool name. */
export function operationByTool(tool: string): AnyOperation | undefined {
  return OPERATIONS.find((o) => o.tool === tool);
}

/** The OpenAPI path of an operation: `/api/v1` plus its path with `{param}`s. */
export function openApiPath(operation: AnyOperation): string {
  return `/api/v1${operation.rest.path.replace(/:(\w+)/g, '{$1}')}`;
}

/** The OpenAPI operationId of an operation: its tool name in camelCase. */
export function operationId(operation: AnyOperation): string {
  return operation.tool.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
}

// Every operation answers what api/openapi.yaml documents for its operationId and success
// status, checked by the compiler (the runtime half, real responses against the schemas,
// is test/rest/contract.int.test.ts).
type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B]
  ? ([B] extends [A] ? ([keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false) : false)
  : false;
type Documented<Id extends keyof operations, Status extends keyof operations[Id]['responses']> =
  operations[Id]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;
type Answers<O, Id extends keyof operations, Status extends keyof operations[Id]['responses']> =
  Same<O extends Operation<infer _S, infer R> ? R : never, Documented<Id, Status>>;

export type OperationsAnswerAsDocumented = [
  Assert<Answers<typeof getInfo, 'getInfo', 200>>,
  Assert<Answers<typeof listAgents, 'listAgents', 200>>,
  Assert<Answers<typeof getAgent, 'getAgent', 200>>,
  Assert<Answers<typeof createAgent, 'createAgent', 201>>,
  // A dry run or a commit-mode create answers 200 (nothing was created) with the same shape.
  Assert<Answers<typeof createAgent, 'createAgent', 200>>,
  Assert<Answers<typeof updateAgent, 'updateAgent', 200>>,
  Assert<Answers<typeof deleteAgent, 'deleteAgent', 200>>,
  Assert<Answers<typeof getAgentStatus, 'getAgentStatus', 200>>,
  Assert<Answers<typeof validateAgent, 'validateAgent', 200>>,
  Assert<Answers<typeof listModelConfigs, 'listModelConfigs', 200>>,
  Assert<Answers<typeof listHarnesses, 'listHarnesses', 200>>,
  Assert<Answers<typeof listSkills, 'listSkills', 200>>,
  Assert<Answers<typeof listAgentRevisions, 'listAgentRevisions', 200>>,
  Assert<Answers<typeof getAgentRevision, 'getAgentRevision', 200>>,
  Assert<Answers<typeof rollbackAgent, 'rollbackAgent', 200>>,
  Assert<Answers<typeof waitForAgent, 'waitForAgent', 200>>,
  Assert<Answers<typeof startSession, 'startSession', 201>>,
  Assert<Answers<typeof sendMessage, 'sendMessage', 200>>,
  Assert<Answers<typeof listSessions, 'listSessions', 200>>,
  Assert<Answers<typeof getSession, 'getSession', 200>>,
  Assert<Answers<typeof planMigration, 'planMigration', 200>>,
];

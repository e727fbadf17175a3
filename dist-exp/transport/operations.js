import { TOOL_DESCRIPTIONS, TOOL_TITLES } from './descriptions.js';
import { agentRefInput, createAgentInput, deleteAgentInput, getAgentRevisionInput, getInfoInput, listAgentRevisionsInput, listAgentsInput, listModelConfigsInput, listSkillsInput, rollbackAgentInput, SPEC_STRING_FIELDS, updateAgentInput, validateAgentInput, waitForAgentInput, getSessionInput, listSessionsInput, sendMessageInput, startSessionInput, } from './operation-schemas.js';
/** Write results say `dryRun: true` when nothing was stored. */
const isDryRun = (result) => result.dryRun === true;
const isCommit = (result) => result.mode === 'commit';
/** The agent's version after a write, the ETag of its answer (RFC 9110 §8.8.3: the tag of the resulting state). */
const versionAfter = (result) => result.agent?.version;
const agentPath = (agent) => `/api/v1/agents/${encodeURIComponent(agent.namespace)}/${encodeURIComponent(agent.name)}`;
// The hints per tool: [readOnly, destructive, idempotent, openWorld].
const hints = (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) => ({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint });
const CLOSED_READ = hints(true, false, false, false);
/** The workload cluster of an agent, on every agent route (a query and a body that disagree are a 400). */
const TARGET = { organization: 'string', cluster: 'string' };
const OPEN_READ = hints(true, false, false, true);
function op(o) {
    return { ...o, title: TOOL_TITLES[o.tool], description: TOOL_DESCRIPTIONS[o.tool] };
}
/**
 * The Go service's `SpecToUpdate`: every non-empty string of the Spec becomes a change
 * and an empty one means "not given"; lists and maps that are present are changes.
 */
export function specToUpdate(input) {
    if (input.update !== true)
        return input;
    const out = { ...input };
    for (const field of SPEC_STRING_FIELDS)
        if (out[field] === '')
            delete out[field];
    return out;
}
export const getInfo = op({
    tool: 'get_info', annotations: CLOSED_READ, input: getInfoInput,
    rest: { method: 'get', path: '/info', status: 200 },
    run: (service, ctx) => service.getInfo(ctx),
});
export const listAgents = op({
    tool: 'list_agents', annotations: CLOSED_READ, input: listAgentsInput,
    rest: { method: 'get', path: '/agents', status: 200, query: { namespace: 'string', details: 'boolean', ...TARGET } },
    run: (service, ctx, input) => service.listAgents(ctx, input),
});
export const getAgent = op({
    tool: 'get_agent', annotations: CLOSED_READ, input: agentRefInput,
    rest: { method: 'get', path: '/agents/:namespace/:name', status: 200, query: TARGET, etag: (agent) => agent.version },
    run: (service, ctx, input) => service.getAgent(ctx, input),
});
export const createAgent = op({
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
export const updateAgent = op({
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
export const deleteAgent = op({
    tool: 'delete_agent', annotations: hints(false, true, false, false), input: deleteAgentInput,
    rest: {
        method: 'delete', path: '/agents/:namespace/:name', status: 200,
        query: { force: 'boolean', dryRun: 'boolean', mode: 'string', repository: 'string', branch: 'string',
            path: 'string', ...TARGET },
        ifMatch: true, githubToken: true,
    },
    run: (service, ctx, input) => service.deleteAgent(ctx, input),
});
export const getAgentStatus = op({
    tool: 'get_agent_status', annotations: CLOSED_READ, input: agentRefInput,
    rest: { method: 'get', path: '/agents/:namespace/:name/status', status: 200, watch: true, query: TARGET },
    run: (service, ctx, input) => service.getAgentStatus(ctx, input),
});
export const validateAgent = op({
    tool: 'validate_agent', annotations: OPEN_READ, input: validateAgentInput,
    rest: { method: 'post', path: '/agents/validate', status: 200, body: true, adapt: specToUpdate },
    run: (service, ctx, input) => {
        const { update, force, ...spec } = input;
        if (update === true)
            return service.validateAgent(ctx, { mode: 'update', update: { ...spec, force } });
        // A missing modelConfig is one of the violations the create dry run reports.
        return service.validateAgent(ctx, { mode: 'create', spec: { ...spec, modelConfig: spec.modelConfig ?? '' } });
    },
});
export const listModelConfigs = op({
    tool: 'list_model_configs', annotations: CLOSED_READ, input: listModelConfigsInput,
    rest: { method: 'get', path: '/modelconfigs', status: 200, query: { namespace: 'string', ...TARGET } },
    run: (service, ctx, input) => service.listModelConfigs(ctx, input),
});
export const listSkills = op({
    tool: 'list_skills', annotations: OPEN_READ, input: listSkillsInput,
    rest: {
        method: 'get', path: '/skills', status: 200, query: { repository: 'string', ref: 'string', refresh: 'boolean' },
    },
    run: (service, ctx, input) => service.listSkills(ctx, input),
});
export const listAgentRevisions = op({
    tool: 'list_agent_revisions', annotations: CLOSED_READ, input: listAgentRevisionsInput,
    rest: { method: 'get', path: '/agents/:namespace/:name/revisions', status: 200, query: TARGET },
    run: (service, ctx, input) => service.listAgentRevisions(ctx, input),
});
export const getAgentRevision = op({
    tool: 'get_agent_revision', annotations: CLOSED_READ, input: getAgentRevisionInput,
    rest: { method: 'get', path: '/agents/:namespace/:name/revisions/:revision', status: 200,
        params: { revision: 'integer' }, query: TARGET },
    run: (service, ctx, input) => service.getAgentRevision(ctx, input),
});
// A write like update_agent: it replaces the agent's values (destructive of the live state).
export const rollbackAgent = op({
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
export const waitForAgent = op({
    tool: 'wait_for_agent', annotations: CLOSED_READ, input: waitForAgentInput,
    rest: { method: 'get', path: '/agents/:namespace/:name/wait', status: 200,
        query: { until: 'string', timeoutSeconds: 'integer', generation: 'integer', ...TARGET } },
    run: (service, ctx, input) => service.waitForAgent(ctx, input),
});
// The session tools: the turns spend the agent's model tokens (a write, open-world: the
// agent may act through its tools); the reads ask the agent, and change nothing.
const sessionPath = (result) => `/api/v1/agents/${encodeURIComponent(result.session.agent.namespace)}/` +
    `${encodeURIComponent(result.session.agent.name)}/sessions/${encodeURIComponent(result.session.id)}`;
export const startSession = op({
    tool: 'start_session', annotations: hints(false, false, false, true), input: startSessionInput,
    serviceRequired: ['message'],
    rest: {
        method: 'post', path: '/agents/:namespace/:name/sessions', status: 201, body: true,
        query: { timeoutSeconds: 'integer' },
        location: sessionPath, turnStream: (service, ctx, input, onUpdate) => service.startSession(ctx, input, onUpdate),
    },
    run: (service, ctx, input) => service.startSession(ctx, input),
});
export const sendMessage = op({
    tool: 'send_message', annotations: hints(false, false, false, true), input: sendMessageInput,
    serviceRequired: ['message'],
    rest: { method: 'post', path: '/agents/:namespace/:name/sessions/:sessionId/messages', status: 200, body: true,
        query: { timeoutSeconds: 'integer' },
        turnStream: (service, ctx, input, onUpdate) => service.sendMessage(ctx, input, onUpdate),
    },
    run: (service, ctx, input) => service.sendMessage(ctx, input),
});
export const listSessions = op({
    tool: 'list_sessions', annotations: CLOSED_READ, input: listSessionsInput,
    rest: { method: 'get', path: '/agents/:namespace/:name/sessions', status: 200 },
    run: (service, ctx, input) => service.listSessions(ctx, input),
});
export const getSession = op({
    tool: 'get_session', annotations: CLOSED_READ, input: getSessionInput,
    rest: { method: 'get', path: '/agents/:namespace/:name/sessions/:sessionId', status: 200 },
    run: (service, ctx, input) => service.getSession(ctx, input),
});
/**
 * The table, in the Go service's tool order, then the history operations. Express matches routes in this order too:
 * `POST /agents/validate` has no `:name` sibling, so no route shadows another.
 */
export const OPERATIONS = [
    getInfo, listAgents, getAgent, createAgent, updateAgent, deleteAgent, getAgentStatus, validateAgent,
    listModelConfigs, listSkills, listAgentRevisions, getAgentRevision, rollbackAgent, waitForAgent,
    startSession, sendMessage, listSessions, getSession,
];
/** The operation of an MCP tool name. */
export function operationByTool(tool) {
    return OPERATIONS.find((o) => o.tool === tool);
}
/** The OpenAPI path of an operation: `/api/v1` plus its path with `{param}`s. */
export function openApiPath(operation) {
    return `/api/v1${operation.rest.path.replace(/:(\w+)/g, '{$1}')}`;
}
/** The OpenAPI operationId of an operation: its tool name in camelCase. */
export function operationId(operation) {
    return operation.tool.replace(/_(\w)/g, (_m, c) => c.toUpperCase());
}
//# sourceMappingURL=operations.js.map
import { summaryOf } from '../core/agent-summary.js';
import { validateName } from '../core/names.js';
import { createAgent } from './writes/create.js';
import { deleteAgent } from './writes/delete.js';
import { getInfo, listModelConfigs, listSkills } from './reads/info.js';
import { getAgent, listAgents } from './reads/reads.js';
import { resourceTypes } from './resources.js';
import { getAgentRevision, listAgentRevisions } from './revisions/revisions.js';
import { rollbackAgent } from './revisions/rollback.js';
import { agentStatus } from './reads/status.js';
import { updateAgent } from './writes/update.js';
import { validateCreate, validateUpdate } from './writes/validate.js';
import { followAgentStatus, waitForAgent, withRollout } from './wait/wait.js';
import { writeWaitSeconds } from '../core/wait-rules.js';
import { envFor, withoutTarget } from './fleet/targeting.js';
import { listFleet } from './fleet/fleet-list.js';
import { getSession, listSessions, sendMessage, startSession, } from './sessions/sessions.js';
export class AgentService {
    env;
    constructor(deps, settings) {
        this.env = {
            deps,
            settings,
            types: resourceTypes(settings.apiVersions),
            compose: settings.compose,
            kube: (ctx) => deps.kube.forRequest(ctx),
            reads: (ctx) => (deps.kube.forReads ? deps.kube.forReads(ctx) : deps.kube.forRequest(ctx)),
        };
    }
    async getInfo(_ctx) {
        return getInfo(this.env);
    }
    async listAgents(ctx, request = {}) {
        const namespace = this.env.settings.namespaces.resolve(request.namespace);
        const listOne = (env) => listAgents(readContextOf(env, ctx), namespace);
        // An organization without a cluster: every cluster of it (fleet-list.ts).
        const { agents, warnings } = request.organization && !request.cluster
            ? await listFleet(this.env, ctx, request.organization, namespace, listOne)
            : await listOne(await envFor(this.env, ctx, request));
        // One object that could not be read degraded its item; the list says so, and so does the log.
        if (warnings)
            ctx.log.warn({ namespace, warnings }, 'agent list degraded');
        const rows = request.details === false ? agents.map(summaryOf) : agents;
        return warnings ? { agents: rows, warnings } : { agents: rows };
    }
    async getAgent(ctx, request) {
        const namespace = this.env.settings.namespaces.resolve(request.namespace);
        const env = await envFor(this.env, ctx, request);
        return getAgent(readContextOf(env, ctx), namespace, request.name);
    }
    /** With `wait`, answers once the new agent is ready or failed or the time is up (wait/wait.ts). */
    async createAgent(ctx, request) {
        const { wait: _wait, ...spec } = withoutTarget(request);
        const seconds = writeWaitSeconds(request);
        const env = await envFor(this.env, ctx, request, { creates: true });
        const result = await createAgent(env, ctx, spec);
        return seconds > 0 ? withRollout(env, ctx, result, seconds) : result;
    }
    /** With `wait`, answers once the agent is ready or failed or the time is up (wait/wait.ts). */
    async updateAgent(ctx, update) {
        const { wait: _wait, ...change } = withoutTarget(update);
        const seconds = writeWaitSeconds(update);
        const env = await envFor(this.env, ctx, update);
        const result = await updateAgent(env, ctx, change);
        return seconds > 0 ? withRollout(env, ctx, result, seconds) : result;
    }
    async deleteAgent(ctx, request) {
        return deleteAgent(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
    }
    async getAgentStatus(ctx, request) {
        const namespace = this.env.settings.namespaces.resolve(request.namespace);
        validateName(request.name);
        const env = await envFor(this.env, ctx, request);
        return agentStatus(env.reads(ctx), env.types, namespace, request.name);
    }
    /** wait_for_agent: the final Status once the agent is ready (or failed) or deleted, or the time is up. */
    async waitForAgent(ctx, request) {
        return waitForAgent(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
    }
    /** The status stream: `onStatus` at once and on every change, until the wait for ready ends. */
    async followAgentStatus(ctx, request, onStatus) {
        return followAgentStatus(await envFor(this.env, ctx, request), ctx, withoutTarget(request), onStatus);
    }
    /** The dry run: create mode, or update mode with `update` set. */
    async validateAgent(ctx, request) {
        if (request.mode === 'create') {
            const env = await envFor(this.env, ctx, request.spec, { creates: true });
            return validateCreate(env, ctx, withoutTarget(request.spec));
        }
        return validateUpdate(await envFor(this.env, ctx, request.update), ctx, withoutTarget(request.update));
    }
    async listAgentRevisions(ctx, request) {
        return listAgentRevisions(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
    }
    async getAgentRevision(ctx, request) {
        return getAgentRevision(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
    }
    /** With `wait`, answers once the agent is ready or failed or the time is up (wait/wait.ts). */
    async rollbackAgent(ctx, request) {
        const { wait: _wait, ...rollback } = withoutTarget(request);
        const seconds = writeWaitSeconds(request);
        const env = await envFor(this.env, ctx, request);
        const result = await rollbackAgent(env, ctx, rollback);
        return seconds > 0 ? withRollout(env, ctx, result, seconds) : result;
    }
    async listModelConfigs(ctx, request = {}) {
        return listModelConfigs(await envFor(this.env, ctx, request), ctx, request.namespace);
    }
    async listSkills(ctx, request = {}) {
        return listSkills(this.env, ctx, request);
    }
    /** start_session: a new A2A conversation with a ready agent, its first message and the agent's turn. */
    async startSession(ctx, request, onUpdate) {
        return startSession(this.env, ctx, request, onUpdate);
    }
    /** send_message: the next message of a session and the agent's turn. */
    async sendMessage(ctx, request, onUpdate) {
        return sendMessage(this.env, ctx, request, onUpdate);
    }
    async listSessions(ctx, request) {
        return listSessions(this.env, ctx, request);
    }
    async getSession(ctx, request) {
        return getSession(this.env, ctx, request);
    }
}
/** The reads of list and get in an environment. */
function readContextOf(env, ctx) {
    return { kube: env.reads(ctx), types: env.types, chartUrl: env.compose.chartOciUrl };
}
//# sourceMappingURL=agent-service.js.map
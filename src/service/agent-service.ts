/**
 * AgentService: the operations of agent-manager, one public method each, each a short
 * orchestration of an operation module. REST and MCP both call exactly these methods
 * (generated from one operation table), so their behaviour cannot drift. Every method
 * takes the request's context first: who is calling is explicit in every signature.
 */
import type {
  Agent, AgentList, AgentSpec, AgentSummary, AgentUpdate, CreateRequest, CreateResult, DeleteResult, HarnessList, Info,
  ModelConfig,
  RevisionDetail, RevisionEntry, RollbackResult, SessionDetail, SessionList, SessionTurn, SkillsResult, Status,
  UpdateResult, ValidateResult, WaitResult,
} from '../core/types.js';
import { validateName } from '../core/names.js';
import { echoOfWrite } from '../core/writes/write-echo.js';
import type { RequestContext } from '../identity/caller.js';
import { createAgent } from './writes/create.js';
import { listHarnesses } from './chart-lines/harnesses.js';
import { deleteAgent, type DeleteRequest } from './writes/delete.js';
import { InfoAnswer, listModelConfigs, listSkills, type SkillsRequest } from './reads/info.js';
import type { OperationEnv } from './operation-env.js';
import { getAgent, listAgents, summaryRow } from './reads/agent-reads.js';
import { resourceTypes } from './resources.js';
import { getAgentRevision, listAgentRevisions } from './revisions/revision-reads.js';
import { rollbackAgent, type RollbackRequest } from './writes/rollback.js';
import type { ServiceDeps, ServiceSettings } from './settings.js';
import { agentStatus } from './status/agent-status.js';
import { updateAgent } from './writes/update.js';
import { validateCreate, validateUpdate } from './writes/validate.js';
import {
  followAgentStatus, waitForAgent, waitStart, withRollout, type FollowEnd, type WaitRequest,
} from './wait/wait-agent.js';
import { writeWaitSeconds } from '../core/status/wait-rules.js';
import { envFor, withoutTarget, type TargetInput } from './fleet/targeting.js';
import { listFleet } from './fleet/list-across-clusters.js';
import { runMigration, type MigrateRequest, type MigrateResult } from './migration/run-migration.js';
import { planMigration, type PlanMigrationRequest } from './migration/plan-migration.js';
import type { NamespacePlan } from '../core/migration/plan.js';
import {
  getSession, listSessions, sendMessage, startSession, type SendMessageRequest, type SessionRef,
  type StartSessionRequest, type TurnListener,
} from './sessions/session-ops.js';

export interface AgentRef {
  namespace?: string;
  name: string;
  /** The workload cluster the agent runs on (both or neither); absent: the management cluster. */
  organization?: string;
  cluster?: string;
}

/** A request that may name the workload cluster its agent runs on. */
type Targeted<T> = T & { organization?: string; cluster?: string };

/** A list's scope: a namespace, on the management cluster or on one workload cluster. */
interface ListScope {
  namespace?: string;
  details?: boolean;
  organization?: string;
  cluster?: string;
}

export class AgentService {
  private readonly env: OperationEnv;
  private readonly info: InfoAnswer;

  constructor(deps: ServiceDeps, settings: ServiceSettings) {
    this.env = {
      deps,
      settings,
      types: resourceTypes(settings.apiVersions),
      compose: settings.compose,
      kube: (ctx) => deps.kube.forRequest(ctx),
      reads: (ctx) => (deps.kube.forReads ? deps.kube.forReads(ctx) : deps.kube.forRequest(ctx)),
    };
    this.info = new InfoAnswer(this.env);
  }

  async getInfo(ctx: RequestContext): Promise<Info> {
    return this.info.get(ctx);
  }

  /** With `details: false`, one summary row per agent (core/status/agent-summary.ts) from the same reads. */
  async listAgents(
    ctx: RequestContext, request?: ListScope & { details?: true },
  ): Promise<{ agents: Agent[]; warnings?: string[] }>;
  async listAgents(
    ctx: RequestContext, request: ListScope & { details: false },
  ): Promise<{ agents: AgentSummary[]; warnings?: string[] }>;
  async listAgents(ctx: RequestContext, request: ListScope): Promise<AgentList>;
  async listAgents(ctx: RequestContext, request: ListScope = {}): Promise<AgentList> {
    const namespace = this.env.settings.namespaces.resolve(request.namespace);
    const listOne = (env: OperationEnv) => listAgents(readContextOf(env, ctx), namespace);
    // An organization without a cluster: every cluster of it (list-across-clusters.ts).
    const { agents, warnings } = request.organization && !request.cluster
      ? await listFleet(this.env, ctx, request.organization, namespace, listOne)
      : await listOne(await envFor(this.env, ctx, request));
    // One object that could not be read degraded its item; the list says so, and so does the log.
    if (warnings) ctx.log.warn({ namespace, warnings }, 'agent list degraded');
    const rows = request.details === false ? agents.map(summaryRow) : agents;
    return warnings ? { agents: rows, warnings } : { agents: rows };
  }

  async getAgent(ctx: RequestContext, request: AgentRef): Promise<Agent> {
    const namespace = this.env.settings.namespaces.resolve(request.namespace);
    const env = await envFor(this.env, ctx, request);
    return getAgent(readContextOf(env, ctx), namespace, request.name);
  }

  /** With `wait`, answers once the new agent is ready or failed or the time is up (wait/wait-agent.ts). */
  async createAgent(ctx: RequestContext, request: CreateRequest): Promise<CreateResult> {
    const { wait: _wait, ...spec } = withoutTarget(request);
    const seconds = writeWaitSeconds(request);
    const env = await envFor(this.env, ctx, request, { creates: true });
    const result = await createAgent(env, ctx, spec);
    // The answer echoes long texts cut (core/writes/write-echo.ts); get_agent returns them whole.
    return echoOfWrite(seconds > 0 ? await withRollout(env, ctx, result, seconds) : result);
  }

  /** With `wait`, answers once the agent is ready or failed or the time is up (wait/wait-agent.ts). */
  async updateAgent(ctx: RequestContext, update: AgentUpdate): Promise<UpdateResult> {
    const { wait: _wait, ...change } = withoutTarget(update);
    const seconds = writeWaitSeconds(update);
    const env = await envFor(this.env, ctx, update);
    const result = await updateAgent(env, ctx, change);
    return echoOfWrite(seconds > 0 ? await withRollout(env, ctx, result, seconds) : result);
  }

  async deleteAgent(ctx: RequestContext, request: Targeted<DeleteRequest>): Promise<DeleteResult> {
    return deleteAgent(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
  }

  async getAgentStatus(ctx: RequestContext, request: AgentRef): Promise<Status> {
    const namespace = this.env.settings.namespaces.resolve(request.namespace);
    validateName(request.name);
    const env = await envFor(this.env, ctx, request);
    return agentStatus(env.reads(ctx), env.types, namespace, request.name, env.compose.chartOciUrl);
  }

  /** wait_for_agent: the final Status once the agent is ready (or failed) or deleted, or the time is up. */
  async waitForAgent(ctx: RequestContext, request: Targeted<WaitRequest>): Promise<WaitResult> {
    return waitForAgent(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
  }

  /** Where wait_for_agent starts, without waiting (HEAD of its route): its refusals and the status now. */
  async waitStart(ctx: RequestContext, request: Targeted<WaitRequest>): Promise<Status | undefined> {
    return waitStart(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
  }

  /** The status stream: `onStatus` at once and on every change, until the wait for ready ends. */
  async followAgentStatus(
    ctx: RequestContext, request: AgentRef & { timeoutSeconds?: number; generation?: number },
    onStatus: (status: Status) => void,
  ): Promise<FollowEnd> {
    return followAgentStatus(await envFor(this.env, ctx, request), ctx, withoutTarget(request), onStatus);
  }

  /** The dry run: create mode, or update mode with `update` set. */
  async validateAgent(
    ctx: RequestContext, request: { mode: 'create'; spec: AgentSpec } | { mode: 'update'; update: AgentUpdate },
  ): Promise<ValidateResult> {
    if (request.mode === 'create') {
      const env = await envFor(this.env, ctx, request.spec, { creates: true });
      return validateCreate(env, ctx, withoutTarget(request.spec));
    }
    return validateUpdate(await envFor(this.env, ctx, request.update), ctx, withoutTarget(request.update));
  }

  async listAgentRevisions(ctx: RequestContext, request: AgentRef): Promise<{ revisions: RevisionEntry[] }> {
    return listAgentRevisions(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
  }

  async getAgentRevision(ctx: RequestContext, request: AgentRef & { revision: number }): Promise<RevisionDetail> {
    return getAgentRevision(await envFor(this.env, ctx, request), ctx, withoutTarget(request));
  }

  /** With `wait`, answers once the agent is ready or failed or the time is up (wait/wait-agent.ts). */
  async rollbackAgent(
    ctx: RequestContext, request: Targeted<RollbackRequest & { wait?: number }>,
  ): Promise<RollbackResult> {
    const { wait: _wait, ...rollback } = withoutTarget(request);
    const seconds = writeWaitSeconds(request);
    const env = await envFor(this.env, ctx, request);
    const result = await rollbackAgent(env, ctx, rollback);
    return echoOfWrite(seconds > 0 ? await withRollout(env, ctx, result, seconds) : result);
  }

  async listModelConfigs(ctx: RequestContext, request: TargetInput = {}): Promise<{ modelConfigs: ModelConfig[] }> {
    return listModelConfigs(await envFor(this.env, ctx, request), ctx, request.namespace);
  }

  async listHarnesses(ctx: RequestContext, request: TargetInput = {}): Promise<HarnessList> {
    return listHarnesses(await envFor(this.env, ctx, request), ctx, request.namespace);
  }

  /** plan_migration: the expand plan of one namespace (dryRun only; the migration runs from the CLI). */
  async planMigration(
    ctx: RequestContext, request: PlanMigrationRequest,
  ): Promise<NamespacePlan & { writable: boolean }> {
    return planMigration(this.env, ctx, request);
  }

  /** `agent-manager migrate`: the phases over the namespaces (not an operation of the API). */
  async migrate(ctx: RequestContext, request: MigrateRequest): Promise<MigrateResult> {
    return runMigration(this.env, ctx, request);
  }

  async listSkills(ctx: RequestContext, request: SkillsRequest = {}): Promise<SkillsResult> {
    return listSkills(this.env, ctx, request);
  }

  /** start_session: a new A2A conversation with a ready agent, its first message and the agent's turn. */
  async startSession(ctx: RequestContext, request: StartSessionRequest, onUpdate?: TurnListener): Promise<SessionTurn> {
    return startSession(this.env, ctx, request, onUpdate);
  }

  /** send_message: the next message of a session and the agent's turn. */
  async sendMessage(ctx: RequestContext, request: SendMessageRequest, onUpdate?: TurnListener): Promise<SessionTurn> {
    return sendMessage(this.env, ctx, request, onUpdate);
  }

  async listSessions(ctx: RequestContext, request: AgentRef): Promise<SessionList> {
    return listSessions(this.env, ctx, request);
  }

  async getSession(ctx: RequestContext, request: SessionRef): Promise<SessionDetail> {
    return getSession(this.env, ctx, request);
  }
}

/** The reads of list and get in an environment. */
function readContextOf(env: OperationEnv, ctx: RequestContext) {
  return { kube: env.reads(ctx), types: env.types, chartUrl: env.compose.chartOciUrl };
}

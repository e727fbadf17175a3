/**
 * A recording stand-in for AgentService at the transport seam, for the tests of both
 * transports (REST routes, MCP tools, the HTTP app) that are about the wire and need no
 * cluster: every call is recorded with its context and operation input, answers are canned
 * wire shapes (each valid against the documented schemas), and `failWith` makes the next
 * call throw. Behaviour tests of the operations themselves use the real service.
 */
import type {
  Agent, CreateResult, DeleteResult, Info, Manifests, ModelConfig, RevisionDetail, RevisionEntry, RollbackResult,
  SkillsResult,
  SessionDetail, SessionList, SessionTurn, Status, Turn, UpdateResult, ValidateResult, WaitResult, HarnessList,
  MigrationPlan,
} from '../../../src/core/types.js';
import type { RequestContext } from '../../../src/identity/caller.js';
import type { OperationService } from '../../../src/transport/operations.js';

type Method = keyof OperationService;
type TurnListener = NonNullable<Parameters<OperationService['startSession']>[2]>;

export interface RecordedCall {
  method: Method;
  ctx: RequestContext;
  input: unknown;
}

const manifests: Manifests = {
  ociRepository: 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\n',
  helmRelease: 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\n',
  values: { agent: { name: 'sre' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only'] },
};

export const SAMPLE_SESSION_TURN: SessionTurn = {
  session: { id: '6f1c2a4e-0000-8000-8000-000000000001', agent: { namespace: 'kagent', name: 'sre' }, state: 'TASK_STATE_COMPLETED', turns: 1, updatedAt: '2026-01-01T00:00:00Z' },
  turn: { taskId: 'task-1', state: 'TASK_STATE_COMPLETED', complete: true, text: 'Hello', parts: [{ text: 'Hello' }], updates: 0 },
};

/** The turn of SAMPLE_SESSION_TURN while the agent is still working on it. */
const WORKING_TURN: Turn = { taskId: 'task-1', state: 'TASK_STATE_WORKING', complete: false, text: '', parts: [], updates: 1 };

export const SAMPLE_AGENT: Agent = {
  name: 'sre', namespace: 'kagent', exists: true, displayName: 'SRE <Assistant> & co', modelConfig: 'default-model-config',
  toolset: ['preset:read-only'], ready: null, accepted: true,
  conditions: [{ type: 'Accepted', status: 'True', reason: 'AgentReconciled', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  managed: 'helmrelease',
  helmRelease: {
    name: 'sre', namespace: 'kagent', ready: true, chartVersion: '0.5.2', suspended: false, gitOpsOwned: false, deleting: false,
    chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' },
  },
  values: manifests.values,
};

export const SAMPLE_STATUS: Status = {
  name: 'sre', namespace: 'kagent', verdict: 'progressing', summary: 'The HelmRelease has not been reconciled yet.',
  agent: { exists: false, ready: null, accepted: null },
  helmRelease: { exists: true, ready: null, suspended: false, gitOpsOwned: false, deleting: false, history: [{ version: 1, chartVersion: '0.5.2', status: 'deployed' }] },
  deployment: { exists: false, replicas: 0, readyReplicas: 0, availableReplicas: 0 },
  pods: [{ name: 'sre-1', phase: 'Pending', ready: false, restarts: 0, containers: [{ name: 'agent', state: 'waiting', reason: 'ContainerCreating' }] }],
  events: [{ type: 'Warning', reason: 'BackOff', message: 'Back-off', object: 'Pod/sre-1', count: 2 }],
};

export const SAMPLE_INFO: Info = {
  version: '0.1.0-test',
  chart: { ociUrl: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', semver: '0.x', schemaVersion: '0.5.2', schemaSource: 'embedded', error: 'offline' },
  namespaces: { default: 'kagent', managed: ['kagent', 'tenant'] },
  capabilities: {
    list: true, get: true, create: true, update: true, delete: true, status: true, validate: true, modelConfigs: true,
    skills: false, writesAsCaller: false, commit: false, sessions: false, targetCluster: false,
  },
  identity: 'serviceAccount',
  apiVersions: { agent: 'kagent.dev/v1alpha2', modelConfig: 'kagent.dev/v1alpha2', helmRelease: 'helm.toolkit.fluxcd.io/v2', ociRepository: 'source.toolkit.fluxcd.io/v1' },
  flux: { helmReleaseInterval: '10m', ociRepositoryInterval: '30m' },
  skillsRepositories: [],
  toolset: { presets: ['read-only', 'none', 'full', 'agent-platform', 'infrastructure'], presetsChecked: false },
  readCache: { enabled: false, state: 'off' },
};

const modelConfigs: ModelConfig[] = [
  { name: 'default-model-config', namespace: 'kagent', provider: 'Anthropic', model: 'claude-sonnet-4-6', accepted: true },
];

const skills: SkillsResult = {
  repositories: [{ repoUrl: 'https://github.com/o/r', ref: 'main', skills: [], truncated: false, fetchedAt: '2026-01-01T00:00:00Z' }],
  skills: [],
};

/** Three revisions, newest first, after a kubectl edit (the `revision: null` entry). */
export const SAMPLE_REVISIONS: RevisionEntry[] = [
  { revision: null, changed: ['agent.systemMessage'], current: true },
  { revision: 2, createdAt: '2026-01-02T00:00:00Z', requestedBy: 'bob@example.com', operation: 'update', changed: ['agent.description'],
    chartVersion: '0.5.2', status: 'deployed' },
  { revision: 1, createdAt: '2026-01-01T00:00:00Z', requestedBy: 'alice@example.com', operation: 'create',
    changed: ['agent.name', 'modelConfig.name', 'toolset'], chartVersion: '0.5.2', status: 'superseded' },
];

/** A fake AgentService that records every call. */
export class FakeService implements OperationService {
  readonly calls: RecordedCall[] = [];
  private failure: { error: unknown; method?: Method } | undefined;

  /** The next call (of `method`, when given) throws `error`, once. */
  failWith(error: unknown, method?: Method): void {
    this.failure = { error, method };
  }

  /** The inputs `method` was called with, in call order. */
  inputs(method: Method): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.input);
  }

  async getInfo(ctx: RequestContext): Promise<Info> {
    return this.answer('getInfo', ctx, undefined, SAMPLE_INFO);
  }

  async listAgents(ctx: RequestContext, request: { namespace?: string } = {}): Promise<{ agents: Agent[] }> {
    return this.answer('listAgents', ctx, request, { agents: [SAMPLE_AGENT] });
  }

  async getAgent(ctx: RequestContext, request: { namespace?: string; name: string }): Promise<Agent> {
    return this.answer('getAgent', ctx, request, SAMPLE_AGENT);
  }

  async createAgent(ctx: RequestContext, spec: Parameters<OperationService['createAgent']>[1]): Promise<CreateResult> {
    return this.answer('createAgent', ctx, spec, {
      agent: SAMPLE_AGENT, manifests, created: { ociRepository: false, helmRelease: true }, status: SAMPLE_STATUS,
    });
  }

  async updateAgent(ctx: RequestContext, update: Parameters<OperationService['updateAgent']>[1]): Promise<UpdateResult> {
    return this.answer('updateAgent', ctx, update, {
      agent: SAMPLE_AGENT, before: {}, after: manifests.values, changed: ['agent.description', 'toolset'], manifests,
    });
  }

  async deleteAgent(ctx: RequestContext, request: Parameters<OperationService['deleteAgent']>[1]): Promise<DeleteResult> {
    return this.answer('deleteAgent', ctx, request, {
      name: 'sre', namespace: 'kagent', helmReleaseDeleted: true, agentDeleted: false, ociRepositoryDeleted: false,
      ociRepositoryKept: 'still referenced by 1 other HelmRelease(s): verifier',
    });
  }

  async getAgentStatus(ctx: RequestContext, request: { namespace?: string; name: string }): Promise<Status> {
    return this.answer('getAgentStatus', ctx, request, SAMPLE_STATUS);
  }

  async validateAgent(ctx: RequestContext, request: Parameters<OperationService['validateAgent']>[1]): Promise<ValidateResult> {
    return this.answer('validateAgent', ctx, request, {
      valid: false, mode: request.mode, errors: ['/agent/runtime: value must be one of "go", "python"'],
      schemaVersion: '0.5.2', schemaSource: 'embedded', manifests,
    });
  }

  async listModelConfigs(
    ctx: RequestContext, request: { namespace?: string } = {},
  ): Promise<{ modelConfigs: ModelConfig[] }> {
    return this.answer('listModelConfigs', ctx, request, { modelConfigs });
  }

  async listHarnesses(ctx: RequestContext, request: { namespace?: string } = {}): Promise<HarnessList> {
    return this.answer('listHarnesses', ctx, request, {
      harnesses: [{ name: 'claude', runtime: 'claude', ready: true }, { name: 'kagent', runtime: 'kagent', ready: true }],
    });
  }

  async planMigration(ctx: RequestContext, request: { namespace?: string; dryRun?: boolean }): Promise<MigrationPlan> {
    return this.answer('planMigration', ctx, request, {
      namespace: request.namespace ?? 'kagent', from: '0.x', to: '2.x', targetSource: 'agent-2', writable: true,
      agents: [{ name: 'sre', action: 'move', owner: 'agent-manager', before: { agent: { name: 'sre' } },
        after: { agent: { name: 'sre', harness: 'kagent' } }, diff: '', notes: [], refusals: [] }],
      blockedBy: [], bareAgents: [],
    });
  }

  async listSkills(ctx: RequestContext, request: Parameters<OperationService['listSkills']>[1] = {}): Promise<SkillsResult> {
    return this.answer('listSkills', ctx, request, skills);
  }

  async listAgentRevisions(
    ctx: RequestContext, request: { namespace?: string; name: string },
  ): Promise<{ revisions: RevisionEntry[] }> {
    return this.answer('listAgentRevisions', ctx, request, { revisions: SAMPLE_REVISIONS });
  }

  async getAgentRevision(
    ctx: RequestContext, request: { namespace?: string; name: string; revision: number },
  ): Promise<RevisionDetail> {
    return this.answer('getAgentRevision', ctx, request, {
      ...SAMPLE_REVISIONS[2]!, revision: 1, spec: { modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
      values: manifests.values, manifests, diff: ['agent.description'],
    } as RevisionDetail);
  }

  async rollbackAgent(ctx: RequestContext, request: Parameters<OperationService['rollbackAgent']>[1]): Promise<RollbackResult> {
    return this.answer('rollbackAgent', ctx, request, {
      agent: SAMPLE_AGENT, before: {}, after: manifests.values, changed: ['agent.description'], manifests,
      revision: 3, rolledBackTo: request.revision,
    });
  }

  async waitForAgent(ctx: RequestContext, request: Parameters<OperationService['waitForAgent']>[1]): Promise<WaitResult> {
    return this.answer('waitForAgent', ctx, request, { ...SAMPLE_STATUS, timedOut: false, waitedSeconds: 1.5 });
  }

  async waitStart(ctx: RequestContext, request: Parameters<OperationService['waitStart']>[1]): Promise<Status | undefined> {
    return this.answer('waitStart', ctx, request, SAMPLE_STATUS);
  }

  /** The stream: SAMPLE_STATUS, then the same agent ready, then `ready`. */
  async followAgentStatus(
    ctx: RequestContext, request: Parameters<OperationService['followAgentStatus']>[1], onStatus: (status: Status) => void,
  ): ReturnType<OperationService['followAgentStatus']> {
    const first = this.answer('followAgentStatus', ctx, request, SAMPLE_STATUS);
    onStatus(first);
    onStatus({ ...first, verdict: 'ready', summary: 'Agent is Ready; 1/1 pods available' });
    return 'ready';
  }

  /** One update of the turn (working, in its session), then SAMPLE_SESSION_TURN. */
  async startSession(
    ctx: RequestContext, request: Parameters<OperationService['startSession']>[1], onUpdate?: TurnListener,
  ): Promise<SessionTurn> {
    const answer = this.answer('startSession', ctx, request, SAMPLE_SESSION_TURN);
    onUpdate?.(WORKING_TURN, answer.session);
    return answer;
  }

  async sendMessage(
    ctx: RequestContext, request: Parameters<OperationService['sendMessage']>[1], onUpdate?: TurnListener,
  ): Promise<SessionTurn> {
    const answer = this.answer('sendMessage', ctx, request, { ...SAMPLE_SESSION_TURN, session: { ...SAMPLE_SESSION_TURN.session, turns: 2 } });
    onUpdate?.(WORKING_TURN, answer.session);
    return answer;
  }

  async listSessions(ctx: RequestContext, request: Parameters<OperationService['listSessions']>[1]): Promise<SessionList> {
    return this.answer('listSessions', ctx, request, { agent: { namespace: 'kagent', name: 'sre' }, sessions: [SAMPLE_SESSION_TURN.session] });
  }

  async getSession(ctx: RequestContext, request: Parameters<OperationService['getSession']>[1]): Promise<SessionDetail> {
    return this.answer('getSession', ctx, request, { session: SAMPLE_SESSION_TURN.session, tasks: [{ id: 'task-1', contextId: SAMPLE_SESSION_TURN.session.id, status: { state: 'TASK_STATE_COMPLETED' } }] });
  }

  private answer<T>(method: Method, ctx: RequestContext, input: unknown, value: T): T {
    this.calls.push({ method, ctx, input });
    const failure = this.failure;
    if (failure !== undefined && (failure.method === undefined || failure.method === method)) {
      this.failure = undefined;
      throw failure.error;
    }
    return structuredClone(value);
  }
}

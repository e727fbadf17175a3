/**
 * A fake of the service methods the operation table calls, for transport tests that are
 * about the wire (tool definitions, results, errors, HTTP behaviour) and not about the
 * agents themselves: every call is recorded with its context and input, and answers
 * with a canned value, or throws what a test planted for that method.
 */
import type { Info } from '../../../core/types.js';
import type { RequestContext } from '../../../identity/caller.js';
import type { OperationService } from '../../operations.js';

type Method = keyof OperationService;

export interface RecordedCall {
  method: Method;
  ctx: RequestContext;
  input: unknown;
}

export const FAKE_INFO = {
  version: 'test',
  chart: { ociUrl: 'oci://example.io/charts/agent', semver: 'x.x.x', schemaVersion: '0.5.2', schemaSource: 'embedded' },
  namespaces: { default: 'kagent', managed: ['kagent'] },
  capabilities: {
    list: true, get: true, create: true, update: true, delete: true, status: true, validate: true,
    modelConfigs: true, skills: false, writesAsCaller: false, commit: false,
  },
  identity: 'serviceAccount',
  apiVersions: {
    agent: 'kagent.dev/v1alpha2', modelConfig: 'kagent.dev/v1alpha2',
    helmRelease: 'helm.toolkit.fluxcd.io/v2', ociRepository: 'source.toolkit.fluxcd.io/v1',
  },
  flux: { helmReleaseInterval: '10m', ociRepositoryInterval: '30m' },
  skillsRepositories: [],
  toolset: { presets: ['read-only', 'none', 'full', 'agent-platform', 'infrastructure'], presetsChecked: false },
  readCache: { enabled: false, state: 'off' },
} satisfies Info;

/** The fake; `failWith` plants an error for one method. */
export class FakeService implements OperationService {
  readonly calls: RecordedCall[] = [];
  private readonly failures = new Map<Method, unknown>();

  failWith(method: Method, error: unknown): void {
    this.failures.set(method, error);
  }

  private async answer<T>(method: Method, ctx: RequestContext, input: unknown, value: T): Promise<T> {
    this.calls.push({ method, ctx, input });
    if (this.failures.has(method)) throw this.failures.get(method);
    return value;
  }

  getInfo(ctx: RequestContext) {
    return this.answer('getInfo', ctx, undefined, structuredClone(FAKE_INFO) as Info);
  }

  listAgents(ctx: RequestContext, input: unknown = {}) {
    return this.answer('listAgents', ctx, input, { agents: [] });
  }

  getAgent(ctx: RequestContext, input: { name: string; namespace?: string }) {
    return this.answer('getAgent', ctx, input, {
      name: input.name, namespace: input.namespace ?? 'kagent', exists: true, ready: null, accepted: null, managed: 'helmrelease' as const,
    });
  }

  createAgent(ctx: RequestContext, input: never) {
    return this.answer('createAgent', ctx, input, {} as never);
  }

  updateAgent(ctx: RequestContext, input: never) {
    return this.answer('updateAgent', ctx, input, {} as never);
  }

  deleteAgent(ctx: RequestContext, input: { name: string; namespace?: string }) {
    return this.answer('deleteAgent', ctx, input, {
      name: input.name, namespace: input.namespace ?? 'kagent', helmReleaseDeleted: true, agentDeleted: false, ociRepositoryDeleted: false,
    });
  }

  getAgentStatus(ctx: RequestContext, input: never) {
    return this.answer('getAgentStatus', ctx, input, {} as never);
  }

  validateAgent(ctx: RequestContext, input: never) {
    return this.answer('validateAgent', ctx, input, {} as never);
  }

  listModelConfigs(ctx: RequestContext, input: unknown = {}) {
    return this.answer('listModelConfigs', ctx, input, { modelConfigs: [] });
  }

  listSkills(ctx: RequestContext, input: unknown = {}) {
    return this.answer('listSkills', ctx, input, { repositories: [], skills: [] });
  }

  listAgentRevisions(ctx: RequestContext, input: unknown) {
    return this.answer('listAgentRevisions', ctx, input, { revisions: [] });
  }

  getAgentRevision(ctx: RequestContext, input: never) {
    return this.answer('getAgentRevision', ctx, input, {} as never);
  }

  rollbackAgent(ctx: RequestContext, input: never) {
    return this.answer('rollbackAgent', ctx, input, {} as never);
  }
}

/**
 * Real responses against the contract: every REST operation of the table, answered by
 * the real AgentService over a seeded sandbox (and the real GitHub skill catalog over a
 * loopback GitHub double), must validate against the schema api/openapi.yaml documents
 * for its status. The scene is rich on purpose, so optional fields are present: a Ready
 * release with history and its rendered Agent CR (conditions, toolNames, git skills), a
 * Deployment with a crash-looping pod and a Warning event, a GitOps-owned release, a
 * bare Agent CR, a registry-less chart schema, and skill repositories that fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubSkillCatalog } from '../../src/skills/github-skill-catalog.js';
import { sampleRepositories, startGitHubDouble, type GitHubDouble } from '../support/github/skills-github-double.js';
import { sandboxSessions, startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { sessionContextId } from '../../src/service/sessions/session-id.js';
import {
  seedAgentCr, seedRelease, seedVerifier, seedWarning, seedWorkload,
} from '../support/service/seed-agents.js';
import { OPERATIONS, openApiPath, type AnyOperation } from '../../src/transport/operations.js';
import {
  documentedOperations, loadOpenApi, SchemaValidator,
} from '../support/transport/openapi-schemas.js';
import { serveRouter, type ServedRouter } from '../support/transport/serve-router.js';

const { doc } = loadOpenApi();
const documented = documentedOperations(doc);
const validator = new SchemaValidator(doc);

let github: GitHubDouble;
let fixture: ServiceFixture;
let api: ServedRouter;

beforeAll(async () => {
  github = await startGitHubDouble({ repositories: sampleRepositories() });
  const skills = new GitHubSkillCatalog({
    repositories: ['https://github.com/giantswarm/agent-skills', 'https://github.com/giantswarm/broken-skills', 'https://github.com/giantswarm/private-skills'],
    apiUrl: github.url,
    retryBaseMs: 1,
  });
  // The sandbox serves kagent's A2A endpoint (without controllers) for the Ready `talker`.
  fixture = await startServiceFixture({ skills, sandbox: { a2a: true }, sessions: sandboxSessions() });
  const { sandbox } = fixture;
  seedVerifier(sandbox);
  seedWorkload(sandbox, {
    name: 'verifier', replicas: 1, available: 0,
    pods: [{ name: 'verifier-abc', ready: false, restarts: 7, waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s\nrestarting' } }],
  });
  seedWarning(sandbox, 'kagent', { kind: 'Pod', name: 'verifier-abc' }, 'BackOff', 'Back-off restarting failed container');
  seedRelease(sandbox, {
    name: 'pending', labels: { 'kustomize.toolkit.fluxcd.io/name': 'flux-system', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
  });
  seedAgentCr(sandbox, { name: 'bare', accepted: false, acceptedMessage: 'model config missing' });
  seedRelease(sandbox, { name: 'talker', ready: true });
  seedAgentCr(sandbox, { name: 'talker', ready: true, accepted: true });
  seedWorkload(sandbox, { name: 'talker', replicas: 1, available: 1, pods: [{ name: 'talker-abc', ready: true }] });
  api = await serveRouter(fixture.service);
});
afterAll(async () => {
  await api?.close();
  await fixture?.close();
  await github?.close();
});

const key = (o: AnyOperation) => `${o.rest.method.toUpperCase()} ${openApiPath(o)}`;
const byTool = (tool: string) => OPERATIONS.find((o) => o.tool === tool)!;

async function call(tool: string, path: string, body?: unknown) {
  const o = byTool(tool);
  const res = await fetch(`${api.base}${path}`, {
    method: o.rest.method.toUpperCase(),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { o, status: res.status, json: (await res.json()) as Record<string, any> };
}

/** The documented schema of `status` for the operation; errors are asserted to be the Error body. */
function expectDocumented(response: { o: AnyOperation; status: number; json: unknown }) {
  const op = documented.get(key(response.o))!;
  const documentedResponse = op.responses[String(response.status)];
  expect(documentedResponse, `${op.operationId} does not document ${response.status}`).toBeDefined();
  if (response.status >= 400) {
    expect(validator.errors('Error', response.json)).toEqual([]);
    return;
  }
  const schema = documentedResponse!.content!['application/json']!.schema;
  expect(validator.errorsFor(schema, response.json)).toEqual([]);
}

const CREATE = { name: 'sre', modelConfig: 'qwen3-8-27b', toolset: ['preset:read-only'], displayName: 'SRE',
  skills: { gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', path: 'nested/runbooks', ref: 'main' }], refs: ['registry.example.io/skills/a:1'] },
  labels: { team: 'sre' }, annotations: { note: 'x' }, runtime: 'python', iconUrl: 'https://example.com/i.png', systemMessage: 'Be brief.' };

/** The session the start with requestId contract-1 opens (no caller: kagent's default user). */
const SESSION = sessionContextId({ namespace: 'kagent', name: 'talker', requestId: 'contract-1' });

type Case = [tool: string, path: string, body: unknown, status: number];
const CASES: Case[] = [
  ['get_info', '/info', undefined, 200],
  ['list_agents', '/agents', undefined, 200],
  ['list_agents', '/agents?namespace=tenant', undefined, 200],
  ['list_agents', '/agents?namespace=nope', undefined, 400],
  ['list_agents', '/agents?details=false', undefined, 200],
  ['list_agents', '/agents?details=maybe', undefined, 400],
  ['get_agent', '/agents/kagent/verifier', undefined, 200],
  ['get_agent', '/agents/kagent/pending', undefined, 200],
  ['get_agent', '/agents/kagent/bare', undefined, 200],
  ['get_agent', '/agents/kagent/nothing', undefined, 404],
  ['get_agent_status', '/agents/kagent/verifier/status', undefined, 200],
  ['get_agent_status', '/agents/kagent/pending/status', undefined, 200],
  ['get_agent_status', '/agents/kagent/bare/status', undefined, 200],
  ['get_agent_status', '/agents/kagent/nothing/status', undefined, 404],
  // The verifier's pod crash-loops: the wait for ready ends at once on failed.
  ['wait_for_agent', '/agents/kagent/verifier/wait?timeoutSeconds=5', undefined, 200],
  ['wait_for_agent', '/agents/kagent/nothing/wait?until=deleted', undefined, 200],
  ['wait_for_agent', '/agents/kagent/nothing/wait', undefined, 404],
  ['wait_for_agent', '/agents/kagent/verifier/wait?timeoutSeconds=601', undefined, 400],
  ['validate_agent', '/agents/validate', { name: 'verifier', modelConfig: 'nope', runtime: 'rust' }, 200],
  ['validate_agent', '/agents/validate', { name: 'verifier', update: true, description: 'd' }, 200],
  ['validate_agent', '/agents/validate', { name: 'pending', update: true, description: 'd' }, 409],
  ['create_agent', '/agents', CREATE, 201],
  ['create_agent', '/agents', CREATE, 409],
  ['create_agent', '/agents', { ...CREATE, name: 'x', toolset: undefined }, 400],
  ['update_agent', '/agents/kagent/sre', { description: 'new', displayName: '', toolset: ['preset:none'] }, 200],
  ['update_agent', '/agents/kagent/sre', { description: 'new' }, 200],
  ['update_agent', '/agents/kagent/pending', { description: 'new' }, 409],
  ['update_agent', '/agents/kagent/bare', { description: 'new' }, 409],
  ['list_agent_revisions', '/agents/kagent/sre/revisions', undefined, 200],
  ['list_agent_revisions', '/agents/kagent/pending/revisions', undefined, 200],
  ['list_agent_revisions', '/agents/kagent/nothing/revisions', undefined, 404],
  ['get_agent_revision', '/agents/kagent/sre/revisions/1', undefined, 200],
  ['get_agent_revision', '/agents/kagent/sre/revisions/x', undefined, 400],
  ['get_agent_revision', '/agents/kagent/sre/revisions/99', undefined, 404],
  ['rollback_agent', '/agents/kagent/sre/rollback?dryRun=true', { revision: 1 }, 200],
  ['rollback_agent', '/agents/kagent/sre/rollback', { revision: 1 }, 200],
  ['rollback_agent', '/agents/kagent/sre/rollback', { revision: 0 }, 400],
  ['rollback_agent', '/agents/kagent/pending/rollback', { revision: 1 }, 409],
  ['delete_agent', '/agents/kagent/sre', undefined, 200],
  ['delete_agent', '/agents/kagent/bare', undefined, 409],
  ['delete_agent', '/agents/kagent/bare?force=true', undefined, 200],
  ['list_model_configs', '/modelconfigs', undefined, 200],
  ['list_model_configs', '/modelconfigs?namespace=tenant', undefined, 200],
  ['list_model_configs', '/modelconfigs?namespace=nope', undefined, 400],
  ['list_harnesses', '/harnesses', undefined, 200],
  ['list_harnesses', '/harnesses?namespace=nope', undefined, 400],
  ['plan_migration', '/migrations?namespace=kagent&dryRun=true', undefined, 200],
  ['plan_migration', '/migrations?namespace=kagent', undefined, 400],
  ['list_skills', '/skills', undefined, 200],
  ['list_skills', '/skills?repository=https://gitlab.com/o/r', undefined, 400],
  ['start_session', '/agents/kagent/talker/sessions', { message: 'hello', requestId: 'contract-1', sessionName: 'contract' }, 201],
  ['start_session', '/agents/kagent/verifier/sessions', { message: 'hello' }, 409],
  ['start_session', '/agents/kagent/talker/sessions', { message: 'x'.repeat(32_001) }, 400],
  ['start_session', '/agents/kagent/nothing/sessions', { message: 'hello' }, 404],
  ['send_message', `/agents/kagent/talker/sessions/${SESSION}/messages`, { message: 'which tools?' }, 200],
  ['send_message', '/agents/kagent/talker/sessions/nope/messages', { message: 'hi' }, 404],
  ['list_sessions', '/agents/kagent/talker/sessions', undefined, 200],
  ['list_sessions', '/agents/kagent/nothing/sessions', undefined, 404],
  ['get_session', `/agents/kagent/talker/sessions/${SESSION}`, undefined, 200],
  ['get_session', '/agents/kagent/talker/sessions/nope', undefined, 404],
];

describe('real REST responses against api/openapi.yaml', () => {
  it.each(CASES)('%s %s answers a documented %i', async (tool, path, body, status) => {
    const response = await call(tool, path, body);
    expect(response.status, JSON.stringify(response.json)).toBe(status);
    expectDocumented(response);
  });

  it('covers every operation of the table, with a success and a refusal', () => {
    for (const o of OPERATIONS) {
      const statuses = CASES.filter(([tool]) => tool === o.tool).map(([, , , status]) => status);
      expect(statuses, o.tool).toContain(o.rest.status);
      if (o.tool !== 'get_info') expect(statuses.some((s) => s >= 400), o.tool).toBe(true);
    }
  });

  it('fills the optional parts of the status and agent shapes the scene was built for', async () => {
    const status = (await call('get_agent_status', '/agents/kagent/verifier/status')).json;
    expect(status.verdict).toBe('failed');
    expect(status.pods[0]).toMatchObject({ restarts: 7, containers: [{ state: 'waiting', reason: 'CrashLoopBackOff' }] });
    expect(status.events.length).toBeGreaterThan(0);
    expect(status.helmRelease.history.length).toBeGreaterThan(0);
    const verifier = (await call('get_agent', '/agents/kagent/verifier')).json;
    expect(verifier).toMatchObject({ exists: true, managed: 'helmrelease', toolNames: ['x_a_b'] });
    expect(verifier.conditions.length).toBeGreaterThan(0);
    const skills = (await call('list_skills', '/skills')).json;
    expect(skills.repositories.some((r: { error?: string }) => r.error)).toBe(true);
    expect(skills.skills.length).toBeGreaterThan(0);
  });
});

describe('degraded answers against api/openapi.yaml', () => {
  beforeAll(() => {
    const { sandbox } = fixture;
    // An Agent whose labels name a release in a namespace where there is none, and a forged revision of verifier.
    seedAgentCr(sandbox, { name: 'orphan', accepted: true, release: { name: 'orphan', namespace: 'tenant' } });
    const release = sandbox.store.get('helmreleases', 'kagent', 'verifier') as { metadata: { uid: string } };
    sandbox.store.create('controllerrevisions', {
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name: 'verifier-7', namespace: 'kagent', labels: { 'agent-manager.giantswarm.io/agent': 'verifier' },
        ownerReferences: [{ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: 'verifier', uid: release.metadata.uid }],
      },
      revision: 7, data: { operation: 'update', spec: { modelConfig: 7 }, values: {} },
    }, { fieldManager: 'forger' });
  });

  it('lists agents with an item error and warnings, and revisions with a malformed one, as documented', async () => {
    const agents = await call('list_agents', '/agents');
    expect(agents.status).toBe(200);
    expectDocumented(agents);
    expect(agents.json.agents.find((a: { name: string }) => a.name === 'orphan').error).toMatchObject({ code: 'not_found' });
    expect(agents.json.warnings).toHaveLength(1);
    const revisions = await call('list_agent_revisions', '/agents/kagent/verifier/revisions');
    expect(revisions.status).toBe(200);
    expectDocumented(revisions);
    expect(revisions.json.revisions.find((r: { revision: number }) => r.revision === 7).error).toMatchObject({ code: 'invalid_request' });
  });

  it.each([
    ['get_agent_revision', '/agents/kagent/verifier/revisions/7', undefined],
    ['rollback_agent', '/agents/kagent/verifier/rollback', { revision: 7 }],
  ])('%s refuses the malformed revision with a documented 422', async (tool, path, body) => {
    const response = await call(tool, path, body);
    expect(response.status, JSON.stringify(response.json)).toBe(422);
    expectDocumented(response);
    expect(response.json.error.message).toContain('data.spec.modelConfig: expected string, received number');
  });
});

describe('HEAD of the wait route', () => {
  const head = (path: string) => fetch(`${api.base}${path}`, { method: 'HEAD' });

  it('answers at once with the status a GET would have and no content, where the GET waits up to its timeout', async () => {
    // `pending` has no status yet (no controllers here): a GET would wait the whole 600 s.
    const res = await head('/agents/kagent/pending/wait?timeoutSeconds=600');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
  });

  it('answers 404 for a missing agent, and 200 when the wait is for its deletion', async () => {
    expect((await head('/agents/kagent/nothing/wait')).status).toBe(404);
    expect((await head('/agents/kagent/nothing/wait?until=deleted')).status).toBe(200);
    expect((await head('/agents/kagent/pending/wait?timeoutSeconds=601')).status).toBe(400);
  });
});

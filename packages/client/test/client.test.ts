/**
 * The client against a running service (`serve --sandbox`): every call of an agent's life is a
 * typed openapi-fetch call (list, create with toolset and modelConfig, wait, update with
 * If-Match from the get's ETag, revisions, rollback, delete), and every refusal comes back as
 * the documented Error, which `unwrap` turns into an AgentManagerError with its code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AgentManagerError, createAgentManagerClient, unwrap, watchAgentStatus, type StatusEvent } from '../src/index.js';
import { serviceUrl } from './service.js';

const client = createAgentManagerClient({ baseUrl: serviceUrl() });
const name = 'client-life';
const agent = { params: { path: { namespace: 'kagent', name } } };

afterAll(async () => {
  await client.DELETE('/api/v1/agents/{namespace}/{name}', agent);
});

describe('an agent\'s life through the typed client', () => {
  it('lists the sandbox\'s sample agents', async () => {
    const { agents } = unwrap(await client.GET('/api/v1/agents', { params: { query: { details: false } } }));
    expect(agents.map((a) => a.name)).toEqual(expect.arrayContaining(['incident-triage', 'kubectl-helper']));
  });

  it('creates an agent with a model config and a toolset, answering 201 with its Location and ETag', async () => {
    const result = await client.POST('/api/v1/agents', {
      body: { name, modelConfig: 'default-model-config', toolset: ['preset:read-only'], systemMessage: 'You review pull requests.' },
    });
    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(result.response.headers.get('location')).toBe(`/api/v1/agents/kagent/${name}`);
    const created = unwrap(result);
    expect(created.created).toEqual({ ociRepository: false, helmRelease: true });
    expect(created.agent).toMatchObject({ name, namespace: 'kagent', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
  });

  it('waits until the rollout is ready', async () => {
    const waited = unwrap(await client.GET('/api/v1/agents/{namespace}/{name}/wait', {
      params: { path: { namespace: 'kagent', name }, query: { timeoutSeconds: 30 } },
    }));
    expect(waited).toMatchObject({ name, verdict: 'ready', timedOut: false });
  });

  it('follows the status stream to its end', async () => {
    const events: StatusEvent[] = [];
    for await (const event of watchAgentStatus(client, { namespace: 'kagent', name, timeoutSeconds: 30 })) events.push(event);
    expect(events[0]).toMatchObject({ event: 'status', data: { name } });
    expect(events.at(-1)).toEqual({ event: 'end', data: { reason: 'ready' } });
  });

  it('updates with If-Match the get\'s ETag, and refuses the stale ETag afterwards with a typed 412', async () => {
    const read = await client.GET('/api/v1/agents/{namespace}/{name}', agent);
    const etag = read.response.headers.get('etag')!;
    const updated = unwrap(await client.PATCH('/api/v1/agents/{namespace}/{name}', {
      ...agent, headers: { 'if-match': etag }, body: { systemMessage: 'You review pull requests and say why.' },
    }));
    expect(updated.changed).toEqual(['agent.systemMessage']);

    const stale = await client.PATCH('/api/v1/agents/{namespace}/{name}', {
      ...agent, headers: { 'if-match': etag }, body: { systemMessage: 'Lost update.' },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error?.error.code).toBe('conflict');
    expect(() => unwrap(stale)).toThrow(AgentManagerError);
  });

  it('lists the revisions newest first and rolls back to the first one', async () => {
    const { revisions } = unwrap(await client.GET('/api/v1/agents/{namespace}/{name}/revisions', agent));
    expect(revisions.map((r) => [r.revision, r.current ?? false])).toEqual([[2, true], [1, false]]);
    const first = unwrap(await client.GET('/api/v1/agents/{namespace}/{name}/revisions/{revision}', {
      params: { path: { namespace: 'kagent', name, revision: 1 } },
    }));
    expect(first.diff).toEqual(['agent.systemMessage']);

    const rolledBack = unwrap(await client.POST('/api/v1/agents/{namespace}/{name}/rollback', { ...agent, body: { revision: 1 } }));
    expect(rolledBack).toMatchObject({ rolledBackTo: 1, revision: 3, changed: ['agent.systemMessage'] });
    expect(rolledBack.after).toMatchObject({ agent: { systemMessage: 'You review pull requests.' } });
  });

  it('deletes the agent, after which a get is a typed not_found', async () => {
    const deleted = unwrap(await client.DELETE('/api/v1/agents/{namespace}/{name}', agent));
    expect(deleted).toMatchObject({ name, helmReleaseDeleted: true });
    const waited = unwrap(await client.GET('/api/v1/agents/{namespace}/{name}/wait', {
      params: { path: { namespace: 'kagent', name }, query: { until: 'deleted', timeoutSeconds: 30 } },
    }));
    expect(waited.timedOut).toBe(false);
    const gone = await client.GET('/api/v1/agents/{namespace}/{name}', agent);
    let thrown: unknown;
    try {
      unwrap(gone);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AgentManagerError);
    expect(thrown).toMatchObject({ status: 404, code: 'not_found' });
    expect((thrown as Error).message).toMatch(/^not found: agent kagent\/client-life/);
  });
});

describe('typed calls', () => {
  it('refuse at compile time a path that is not in the document and a field of the wrong type', async () => {
    // @ts-expect-error no such path in api/openapi.yaml
    const misspelt = await client.GET('/api/v1/agent');
    expect(misspelt.response.status).toBe(404);
    const wrongType = await client.POST('/api/v1/agents/{namespace}/{name}/rollback', {
      // @ts-expect-error revision is an integer
      ...agent, body: { revision: 'one' },
    });
    expect(wrongType.response.status).toBe(400);
  });
});

describe('typed errors', () => {
  it('a first create without a toolset is a 400 that names toolset', async () => {
    const result = await client.POST('/api/v1/agents', {
      // @ts-expect-error the Spec type requires toolset, so the compiler refuses this body first
      body: { name: 'client-no-toolset', modelConfig: 'default-model-config' },
    });
    expect(result.response.status).toBe(400);
    expect(result.error).toMatchObject({ error: { code: 'invalid_request' } });
    expect(result.error?.error.message).toContain('toolset is required');
  });

  it('a create of a name that exists is a typed 409', async () => {
    const result = await client.POST('/api/v1/agents', {
      body: { name: 'kubectl-helper', modelConfig: 'default-model-config', toolset: ['preset:none'] },
    });
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 409, code: 'conflict' }));
  });
});

/**
 * The REST lifecycle over real HTTP, mirroring the Go service's TestRESTLifecycle in our
 * own code: the REST router over the real AgentService, which talks to a seeded sandbox
 * API server through @kubernetes/client-node as the ServiceAccount. Every response is
 * also validated against the schema api/openapi.yaml documents for it.
 *
 * Adapted honestly to our seed: the shared OCIRepository of the home namespace exists before the
 * create, so the create reuses it (`created.ociRepository: false`) and the delete of the
 * namespace's last release removes it (`ociRepositoryDeleted: true`). The sandbox runs no
 * helm-controller or kagent, so the new agent has no Agent CR (`exists: false`) and its
 * status is `progressing`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespacesOf, startNamespacedFixture, type NamespacedFixture } from '../support/service/shared-fixture.js';
import { DEFAULT_OPENAPI_PATH } from '../../src/transport/rest/openapi-document.js';
import { loadOpenApi, SchemaValidator } from '../support/transport/openapi-schemas.js';
import { serveRouter, type ServedRouter } from '../support/transport/serve-router.js';

// This file's own namespaces on the worker's shared sandbox.
const { home, tenant } = namespacesOf('rest-lifecycle');
let fixture: NamespacedFixture;
let api: ServedRouter;
const validator = new SchemaValidator(loadOpenApi(DEFAULT_OPENAPI_PATH).doc);

beforeAll(async () => {
  fixture = await startNamespacedFixture('rest-lifecycle');
  api = await serveRouter(fixture.service);
});
afterAll(async () => {
  await api?.close();
  await fixture?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const json = type === 'application/json' ? (JSON.parse(text) as Record<string, any>) : undefined;
  return { status: res.status, text, json };
}

/** The response must match the documented schema of its success, or the Error schema. */
function documented(schema: string, response: { json?: Record<string, any> }) {
  expect(validator.errors(schema, response.json)).toEqual([]);
  return response.json!;
}

const SPEC = {
  name: 'sre',
  displayName: 'SRE Assistant',
  description: 'Keeps the lights on',
  modelConfig: 'default-model-config',
  toolset: ['preset:read-only'],
};

describe('the REST lifecycle (TestRESTLifecycle)', () => {
  it('runs info → openapi → refusals → validate → create → 409 → list → get → PATCH → status → modelconfigs → skills → delete → 404', async () => {
    const info = documented('Info', await call('GET', '/info'));
    expect(info).toMatchObject({ identity: 'serviceAccount', namespaces: { default: home, managed: [home, tenant] } });
    expect(info.capabilities).toMatchObject({ skills: false, writesAsCaller: false });

    const openapi = await call('GET', '/openapi.yaml');
    expect(openapi.status).toBe(200);
    expect(openapi.text).toContain('x-mcp-tool: create_agent');

    const badModel = await call('POST', '/agents', { ...SPEC, modelConfig: 'nope' });
    expect(badModel.status).toBe(400);
    expect(documented('Error', badModel).error).toEqual({
      code: 'invalid_request',
      message: `invalid request: modelConfig "nope" does not exist in namespace ${home}; valid: default-model-config, qwen3-8-27b`,
    });

    const unknown = await call('POST', '/agents', { ...SPEC, x: 1 });
    expect(unknown.status).toBe(400);
    expect(documented('Error', unknown).error.message).toBe('invalid request: invalid JSON: json: unknown field "x"');

    const dryRun = await call('POST', '/agents/validate', SPEC);
    expect(dryRun.status).toBe(200);
    expect(documented('ValidateResult', dryRun)).toMatchObject({ valid: true, mode: 'create', schemaVersion: '0.5.2', schemaSource: 'embedded' });
    expect(documented('AgentList', await call('GET', '/agents')).agents).toEqual([]);

    const created = await call('POST', '/agents', SPEC);
    expect(created.status).toBe(201);
    expect(documented('CreateResult', created)).toMatchObject({
      created: { ociRepository: false, helmRelease: true },
      agent: { name: 'sre', namespace: home, managed: 'helmrelease' },
      status: { verdict: 'progressing' },
    });

    const again = await call('POST', '/agents', SPEC);
    expect(again.status).toBe(409);
    expect(documented('Error', again).error).toEqual({
      code: 'conflict', message: `conflict: HelmRelease ${home}/sre already exists; use update_agent to change it`,
    });

    const list = documented('AgentList', await call('GET', `/agents?namespace=${home}`));
    expect(list.agents.map((a: { name: string }) => a.name)).toEqual(['sre']);

    const agent = documented('Agent', await call('GET', `/agents/${home}/sre`));
    expect(agent).toMatchObject({ displayName: 'SRE Assistant', managed: 'helmrelease', exists: false, toolset: ['preset:read-only'] });

    const patched = await call('PATCH', `/agents/${home}/sre`, { description: 'Keeps the lights on, politely', toolset: ['preset:none'] });
    expect(patched.status).toBe(200);
    expect(documented('UpdateResult', patched).changed).toEqual(['agent.description', 'toolset']);

    const status = await call('GET', `/agents/${home}/sre/status`);
    expect(documented('Status', status).verdict).toBe('progressing');

    const models = documented('ModelConfigList', await call('GET', '/modelconfigs'));
    expect(models.modelConfigs.map((m: { name: string }) => m.name)).toEqual(['default-model-config', 'qwen3-8-27b']);

    const skills = await call('GET', '/skills');
    expect(skills.status).toBe(501);
    expect(documented('Error', skills).error).toEqual({ code: 'unsupported', message: 'unsupported: no skill repositories are configured' });

    const deleted = await call('DELETE', `/agents/${home}/sre`);
    expect(deleted.status).toBe(200);
    expect(documented('DeleteResult', deleted)).toEqual({
      name: 'sre', namespace: home, helmReleaseDeleted: true, agentDeleted: false, ociRepositoryDeleted: true, resourceVersion: expect.any(String), mode: 'apply',
    });

    const gone = await call('GET', `/agents/${home}/sre`);
    expect(gone.status).toBe(404);
    expect(documented('Error', gone).error.code).toBe('not_found');
  });
});

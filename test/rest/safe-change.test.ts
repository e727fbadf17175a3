/**
 * Safe change over REST: dry runs answer 200 and store nothing, GET sends the agent's
 * version as a strong ETag, and If-Match turns a stale PATCH or DELETE into 412
 * Precondition Failed with code `conflict`. The real router over the real AgentService
 * on a seeded sandbox; every body is checked against api/openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from '../../src/service/testing/fixture.js';
import { DEFAULT_OPENAPI_PATH } from '../../src/transport/rest/openapi-document.js';
import { loadOpenApi, SchemaValidator } from '../../src/transport/rest/testing/openapi-schemas.js';
import { serveRouter, type ServedRouter } from '../../src/transport/rest/testing/serve-router.js';

let fixture: ServiceFixture;
let api: ServedRouter;
const validator = new SchemaValidator(loadOpenApi(DEFAULT_OPENAPI_PATH).doc);
const SPEC = { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] };

beforeAll(async () => {
  fixture = await startServiceFixture();
  api = await serveRouter(fixture.service);
});
afterAll(async () => {
  await api?.close();
  await fixture?.close();
});

async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${api.base}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

function expectDocumented(schema: string, json: unknown) {
  expect(validator.errors(schema, json)).toEqual([]);
}

describe('REST dry runs', () => {
  it('POST ?dryRun=true answers 200 with dryRun: true and creates nothing', async () => {
    const before = fixture.sandbox.store.revision;
    const res = await call('POST', '/agents?dryRun=true', { body: SPEC });
    expect(res.status).toBe(200);
    expectDocumented('CreateResult', res.json);
    expect(res.json).toMatchObject({ dryRun: true, created: { helmRelease: true } });
    expect(fixture.sandbox.store.revision).toBe(before);
    expect((await call('GET', '/agents/kagent/sre')).status).toBe(404);
  });

  it('a body "dryRun": true is a dry run too', async () => {
    const res = await call('POST', '/agents', { body: { ...SPEC, dryRun: true } });
    expect(res.status).toBe(200);
    expect(res.json.dryRun).toBe(true);
  });

  it('a real create is still 201, and PATCH and DELETE with dryRun change nothing', async () => {
    expect((await call('POST', '/agents', { body: SPEC })).status).toBe(201);
    const before = fixture.sandbox.store.revision;
    const patched = await call('PATCH', '/agents/kagent/sre?dryRun=true', { body: { description: 'draft' } });
    expect(patched.status).toBe(200);
    expectDocumented('UpdateResult', patched.json);
    expect(patched.json).toMatchObject({ dryRun: true, changed: ['agent.description'] });
    const deleted = await call('DELETE', '/agents/kagent/sre?dryRun=true');
    expect(deleted.status).toBe(200);
    expectDocumented('DeleteResult', deleted.json);
    expect(deleted.json).toMatchObject({ dryRun: true, helmReleaseDeleted: true });
    expect(fixture.sandbox.store.revision).toBe(before);
  });
});

describe('REST preconditions', () => {
  it('GET sends the agent resourceVersion as a strong ETag', async () => {
    const res = await call('GET', '/agents/kagent/sre');
    expect(res.headers.get('etag')).toBe(`"${res.json.resourceVersion}"`);
    expectDocumented('Agent', res.json);
  });

  it('a stale If-Match is 412 conflict naming both versions, and the current one succeeds', async () => {
    const etag = (await call('GET', '/agents/kagent/sre')).headers.get('etag')!;
    const first = await call('PATCH', '/agents/kagent/sre', { body: { description: 'mine' }, headers: { 'if-match': etag } });
    expect(first.status).toBe(200);
    const now = first.json.agent.resourceVersion as string;
    const stale = await call('PATCH', '/agents/kagent/sre', { body: { description: 'theirs' }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expectDocumented('Error', stale.json);
    expect(stale.json.error).toEqual({
      code: 'conflict',
      message: `conflict: agent kagent/sre changed since version ${etag.slice(1, -1)} was read (now ${now}); read it again`,
    });
    const current = await call('PATCH', '/agents/kagent/sre', { body: { description: 'theirs' }, headers: { 'if-match': `"${now}"` } });
    expect(current.status).toBe(200);
  });

  it('If-Match * only asks that the agent exists', async () => {
    const res = await call('PATCH', '/agents/kagent/sre', { body: { displayName: 'SRE' }, headers: { 'if-match': '*' } });
    expect(res.status).toBe(200);
  });

  it.each([
    ['a weak tag', 'W/"1"', 'weak entity tag'],
    ['a list of tags', '"1", "2"', 'must be one entity tag'],
    ['an unquoted version', '1', 'must be one entity tag'],
  ])('refuses %s with a 400 that says what to send', async (_case, header, text) => {
    const res = await call('PATCH', '/agents/kagent/sre', { body: { description: 'x' }, headers: { 'if-match': header } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain(text);
  });

  it('refuses an If-Match and a body resourceVersion that disagree', async () => {
    const res = await call('PATCH', '/agents/kagent/sre', { body: { description: 'x', resourceVersion: '1' }, headers: { 'if-match': '"2"' } });
    expect(res.status).toBe(400);
  });

  it('a DELETE with a stale If-Match is 412 and keeps the agent; with the current one it deletes', async () => {
    const stale = await call('DELETE', '/agents/kagent/sre', { headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(stale.json.error.code).toBe('conflict');
    const etag = (await call('GET', '/agents/kagent/sre')).headers.get('etag')!;
    const deleted = await call('DELETE', '/agents/kagent/sre', { headers: { 'if-match': etag } });
    expect(deleted.status).toBe(200);
    expect(deleted.json.resourceVersion).toBe(etag.slice(1, -1));
  });
});

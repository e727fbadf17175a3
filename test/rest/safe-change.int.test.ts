/**
 * Safe change over REST: dry runs answer 200 and store nothing, GET sends the agent's
 * version as a strong ETag, and If-Match turns a stale PATCH or DELETE into 412
 * Precondition Failed with code `conflict`. The real router over the real AgentService
 * on a seeded sandbox; every body is checked against api/openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespacesOf, startNamespacedFixture, type NamespacedFixture } from '../support/service/shared-fixture.js';
import { DEFAULT_OPENAPI_PATH } from '../../src/transport/rest/openapi-document.js';
import { loadOpenApi, SchemaValidator } from '../support/transport/openapi-schemas.js';
import { serveRouter, type ServedRouter } from '../support/transport/serve-router.js';

// This file's own namespaces on the worker's shared sandbox.
const { home } = namespacesOf('rest-safe-change');
let fixture: NamespacedFixture;
let api: ServedRouter;
const validator = new SchemaValidator(loadOpenApi(DEFAULT_OPENAPI_PATH).doc);
const SPEC = { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] };

beforeAll(async () => {
  fixture = await startNamespacedFixture('rest-safe-change');
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
    expect((await call('GET', `/agents/${home}/sre`)).status).toBe(404);
  });

  it('a body "dryRun": true is a dry run too', async () => {
    const res = await call('POST', '/agents', { body: { ...SPEC, dryRun: true } });
    expect(res.status).toBe(200);
    expect(res.json.dryRun).toBe(true);
  });

  it('a real create is still 201, and PATCH and DELETE with dryRun change nothing', async () => {
    const created = await call('POST', '/agents', { body: SPEC });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/agents/${home}/sre`);
    expect(created.headers.get('etag')).toBe(`"${created.json.agent.version}"`);
    const before = fixture.sandbox.store.revision;
    const patched = await call('PATCH', `/agents/${home}/sre?dryRun=true`, { body: { description: 'draft' } });
    expect(patched.status).toBe(200);
    expectDocumented('UpdateResult', patched.json);
    expect(patched.json).toMatchObject({ dryRun: true, changed: ['agent.description'] });
    const deleted = await call('DELETE', `/agents/${home}/sre?dryRun=true`);
    expect(deleted.status).toBe(200);
    expectDocumented('DeleteResult', deleted.json);
    expect(deleted.json).toMatchObject({ dryRun: true, helmReleaseDeleted: true });
    expect(fixture.sandbox.store.revision).toBe(before);
  });
});

describe('REST dryRun parsing', () => {
  const NEW = { ...SPEC, name: 'draft' };

  it.each(['All', 'all', 'TRUE'])('?dryRun=%s is a dry run (All is how Kubernetes spells it) and creates nothing', async (value) => {
    const before = fixture.sandbox.store.revision;
    const res = await call('POST', `/agents?dryRun=${value}`, { body: NEW });
    expect(res.status).toBe(200);
    expect(res.json.dryRun).toBe(true);
    expect(fixture.sandbox.store.revision).toBe(before);
  });

  it.each(['yes', '1', '', 'Tru'])('?dryRun=%j is a 400 naming the accepted values, and nothing is written', async (value) => {
    const before = fixture.sandbox.store.revision;
    const res = await call('POST', `/agents?dryRun=${value}`, { body: NEW });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe(
      `invalid request: the query parameter dryRun must be true or false (or All, as Kubernetes spells a dry run); got ${JSON.stringify(value)}`,
    );
    expect(fixture.sandbox.store.revision).toBe(before);
  });

  it('?force=yes is a 400 naming true and false', async () => {
    const res = await call('DELETE', `/agents/${home}/nobody?force=yes`);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('invalid request: the query parameter force must be true or false; got "yes"');
  });

  it.each([
    ['?dryRun=false', true],
    ['?dryRun=true', false],
  ])('a query %s and a body "dryRun": %s disagree: a 400, and nothing is written', async (query, body) => {
    const before = fixture.sandbox.store.revision;
    const res = await call('POST', `/agents${query}`, { body: { ...NEW, dryRun: body } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('disagree: send one of them');
    expect(fixture.sandbox.store.revision).toBe(before);
  });

  it('a query and a body dryRun that agree are a dry run', async () => {
    const res = await call('POST', '/agents?dryRun=true', { body: { ...NEW, dryRun: true } });
    expect(res.status).toBe(200);
    expect(res.json.dryRun).toBe(true);
  });

  it('?dryRun given twice with different values is a 400', async () => {
    const res = await call('POST', '/agents?dryRun=true&dryRun=false', { body: NEW });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('dryRun is given more than once');
  });

  it('a body giving dryRun twice (JSON.parse would keep the last, false) is a 400 naming it, and nothing is written', async () => {
    const before = fixture.sandbox.store.revision;
    const res = await fetch(`${api.base}/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: `{"name": "draft", "modelConfig": "default-model-config", "toolset": ["preset:none"], "dryRun": true, "dryRun": false}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message)
      .toBe('invalid request: invalid JSON: field "dryRun" is given twice; send each field once');
    expect(fixture.sandbox.store.revision).toBe(before);
    expect((await call('GET', `/agents/${home}/draft`)).status).toBe(404);
  });
});

describe('REST preconditions', () => {
  it('GET sends the agent version (generation and a hash of labels and annotations) as a strong ETag', async () => {
    const res = await call('GET', `/agents/${home}/sre`);
    expect(res.json.version).toMatch(/^\d+-[0-9a-f]{8}$/);
    expect(res.headers.get('etag')).toBe(`"${res.json.version}"`);
    expectDocumented('Agent', res.json);
  });

  it('a stale If-Match is 412 conflict naming both versions, and the current one succeeds', async () => {
    const etag = (await call('GET', `/agents/${home}/sre`)).headers.get('etag')!;
    const first = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'mine' }, headers: { 'if-match': etag } });
    expect(first.status).toBe(200);
    const now = first.json.agent.version as string;
    const stale = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'theirs' }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expectDocumented('Error', stale.json);
    expect(stale.json.error).toEqual({
      code: 'conflict',
      message: `conflict: agent ${home}/sre changed since version ${etag.slice(1, -1)} was read (now ${now}); read it again`,
    });
    const current = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'theirs' }, headers: { 'if-match': `"${now}"` } });
    expect(current.status).toBe(200);
  });

  it('If-Match * only asks that the agent exists', async () => {
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { displayName: 'SRE' }, headers: { 'if-match': '*' } });
    expect(res.status).toBe(200);
  });

  it('If-Match with a list of tags succeeds when the agent is at one of them', async () => {
    const etag = (await call('GET', `/agents/${home}/sre`)).headers.get('etag')!;
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'listed' }, headers: { 'if-match': `"1", ${etag}, W/"2"` } });
    expect(res.status).toBe(200);
    expect(res.json.agent.description).toBe('listed');
  });

  it('If-Match with a list naming none of the current version is 412 conflict naming what was sent', async () => {
    const before = fixture.sandbox.store.revision;
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'x' }, headers: { 'if-match': '"1", "2"' } });
    expect(res.status).toBe(412);
    expectDocumented('Error', res.json);
    expect(res.json.error.code).toBe('conflict');
    expect(res.json.error.message).toMatch(new RegExp(`^conflict: agent ${home}/sre matches none of If-Match "1", "2": it is at version \\d+-[0-9a-f]{8}; read it again$`));
    expect(fixture.sandbox.store.revision).toBe(before);
  });

  it('a weak If-Match tag never matches, even of the current version: 412, not 400 (strong comparison)', async () => {
    const etag = (await call('GET', `/agents/${home}/sre`)).headers.get('etag')!;
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'x' }, headers: { 'if-match': `W/${etag}` } });
    expect(res.status).toBe(412);
    expect(res.json.error.message).toContain('a weak tag W/"…" never matches');
  });

  it.each([
    ['an unquoted version', '1'],
    ['garbage', 'latest please'],
    ['a tag with a space inside', '"4 4"'],
    ['only commas', ' , '],
  ])('refuses %s in If-Match with a 400 that spells the form', async (_case, header) => {
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'x' }, headers: { 'if-match': header } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/If-Match (must be \* or entity tags in double quotes|is empty)/);
  });

  it.each(['*', '"1"', 'W/"1"', '"1", "2"'])('a PATCH of a missing agent is 404 whatever If-Match says (%s; RFC 9110 §13.2.1)', async (header) => {
    const res = await call('PATCH', `/agents/${home}/nobody`, { body: { description: 'x' }, headers: { 'if-match': header } });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it('PATCH answers the version it left as a strong ETag, usable as the next If-Match', async () => {
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'tagged' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${res.json.agent.version}"`);
    const next = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'chained' }, headers: { 'if-match': res.headers.get('etag')! } });
    expect(next.status).toBe(200);
  });

  it('a rollback to a fractional revision is a 400 asking for a whole number', async () => {
    const res = await call('POST', `/agents/${home}/sre/rollback`, { body: { revision: 1.5 } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('invalid request: invalid JSON: field "revision" must be a whole number, not 1.5');
  });

  it('rollback answers the version it left as a strong ETag', async () => {
    const res = await call('POST', `/agents/${home}/sre/rollback`, { body: { revision: 1 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${res.json.agent.version}"`);
  });

  it('If-None-Match with the current ETag still answers 200 with the whole agent: readiness changes without the version', async () => {
    const first = await call('GET', `/agents/${home}/sre`);
    const again = await call('GET', `/agents/${home}/sre`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(200);
    expect(again.json.name).toBe('sre');
  });

  it.each([['*', '*'], ['the current ETag', 'current'], ['the current ETag as a weak tag', 'weak']])(
    'a PATCH with If-None-Match naming %s is 412 and writes nothing (RFC 9110 §13.1.2)', async (_case, form) => {
      const etag = (await call('GET', `/agents/${home}/sre`)).headers.get('etag')!;
      const header = form === '*' ? '*' : form === 'weak' ? `W/${etag}` : `"1", ${etag}`;
      const before = fixture.sandbox.store.revision;
      const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'none-match' }, headers: { 'if-none-match': header } });
      expect(res.status).toBe(412);
      expectDocumented('Error', res.json);
      expect(res.json.error.code).toBe('conflict');
      expect(res.json.error.message).toContain('If-None-Match');
      expect(fixture.sandbox.store.revision).toBe(before);
    },
  );

  it('a write with If-None-Match naming another version goes ahead, and a malformed one is a 400', async () => {
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'moved on' }, headers: { 'if-none-match': '"1"' } });
    expect(res.status).toBe(200);
    const bad = await call('DELETE', `/agents/${home}/sre`, { headers: { 'if-none-match': 'latest' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^invalid request: If-None-Match must be \* or entity tags in double quotes/);
  });

  it('GET evaluates If-Match: the current ETag or * answers the agent, another version 412', async () => {
    const etag = (await call('GET', `/agents/${home}/sre`)).headers.get('etag')!;
    expect((await call('GET', `/agents/${home}/sre`, { headers: { 'if-match': `"1", ${etag}` } })).status).toBe(200);
    expect((await call('GET', `/agents/${home}/sre`, { headers: { 'if-match': '*' } })).status).toBe(200);
    const stale = await call('GET', `/agents/${home}/sre`, { headers: { 'if-match': `"1", W/${etag}` } });
    expect(stale.status).toBe(412);
    expectDocumented('Error', stale.json);
    expect(stale.json.error.message).toBe(`conflict: agent ${home}/sre matches none of If-Match "1", W/${etag}: it is at version ${etag.slice(1, -1)}; read it without If-Match`);
    expect((await call('GET', `/agents/${home}/sre`, { headers: { 'if-match': 'soon' } })).status).toBe(400);
  });

  it('refuses an If-Match and a body version that disagree', async () => {
    const res = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'x', version: '1-00000000' }, headers: { 'if-match': '"2-00000000"' } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('invalid request: If-Match names version 2-00000000 and the body version "1-00000000": send one of them');
  });

  it('checks a body resourceVersion strictly beside If-Match: both must hold', async () => {
    const read = await call('GET', `/agents/${home}/sre`);
    const stale = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'both', resourceVersion: '1' }, headers: { 'if-match': read.headers.get('etag')! } });
    expect(stale.status).toBe(412);
    const both = await call('PATCH', `/agents/${home}/sre`, { body: { description: 'both', resourceVersion: read.json.resourceVersion }, headers: { 'if-match': read.headers.get('etag')! } });
    expect(both.status).toBe(200);
  });

  it('of six PATCHes racing with the same If-Match, exactly one is applied and the others are refused, never lost', async () => {
    const etag = (await call('GET', `/agents/${home}/sre`)).headers.get('etag')!;
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) =>
      call('PATCH', `/agents/${home}/sre`, { body: { description: `race ${i}` }, headers: { 'if-match': etag } })));
    // A loser that read after the winner's write fails its precondition (412); one that read
    // before it is refused by the API server at the resourceVersion it read (409).
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect([409, 412]).toContain(lost.status);
      expect(lost.json.error.code).toBe('conflict');
    }
    expect((await call('GET', `/agents/${home}/sre`)).json.description).toBe(won[0]!.json.agent.description);
  });

  it('a DELETE with a stale If-Match is 412 and keeps the agent; with the current one it deletes', async () => {
    const stale = await call('DELETE', `/agents/${home}/sre`, { headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(stale.json.error.code).toBe('conflict');
    const read = await call('GET', `/agents/${home}/sre`);
    const deleted = await call('DELETE', `/agents/${home}/sre`, { headers: { 'if-match': read.headers.get('etag')! } });
    expect(deleted.status).toBe(200);
    expect(deleted.json.resourceVersion).toBe(read.json.resourceVersion);
  });
});

describe('REST caching headers', () => {
  it.each([
    ['a read', 'GET', '/agents'],
    ['an agent', 'GET', `/agents/${home}/sre`],
    ['an error', 'GET', `/agents/${home}/nobody`],
    ['a write', 'PATCH', `/agents/${home}/sre?dryRun=true`],
  ])('%s is Cache-Control: no-cache, private with Vary: Authorization, and no body-hash ETag', async (_case, method, path) => {
    const res = await call(method, path, method === 'PATCH' ? { body: { description: 'x' } } : {});
    expect(res.headers.get('cache-control')).toBe('no-cache, private');
    expect(res.headers.get('vary')).toContain('Authorization');
    expect(res.headers.get('etag') ?? '"').not.toMatch(/^W\//);
  });
});

import { match } from 'path-to-regexp';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode, HTTP_STATUS } from '../../core/errors.js';
import { MAX_BODY_BYTES } from './json-body.js';
import { OPERATIONS } from '../operations.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { serveRouter, serveRouterPerFile } from '../../../test/support/transport/serve-router.js';

const service = new FakeService();
const api = serveRouterPerFile(service);

const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(`${api.base}${path}`, { method, body, headers: { 'content-type': 'application/json', ...headers } });
const json = (method: string, path: string, body: unknown) => send(method, path, JSON.stringify(body));
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;
const CREATE = { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] };

describe('REST body decoding', () => {
  it.each([
    ['top-level', { ...CREATE, x: 1 }, 'x'],
    ['nested in skills', { ...CREATE, skills: { gitRefs: [{ url: 'https://github.com/o/r', branch: 'main' }] } }, 'branch'],
    ['a __proto__ key', JSON.parse('{"name":"sre","modelConfig":"m","__proto__":{"a":1}}'), '__proto__'],
  ])('refuses an unknown field (%s) with the documented text', async (_case, body, field) => {
    const res = await json('POST', '/agents', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'invalid_request', message: `invalid request: invalid JSON: json: unknown field "${field}"` },
    });
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['an object under labels', '{"labels":{"__proto__":{"team":"x"}}}', 'labels.__proto__'],
    ['a string under annotations', '{"annotations":{"a":"b","__proto__":"x"}}', 'annotations.__proto__'],
  ])('refuses a "__proto__" key in a map (%s), which the schema would drop silently', async (_case, extra, field) => {
    const body = `${JSON.stringify(CREATE).slice(0, -1)},${extra.slice(1)}`;
    const res = await send('POST', '/agents', body);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: 'invalid_request',
      message: `invalid request: invalid JSON: field "${field}": "__proto__" is not accepted as a key`,
    });
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['an unknown field 10,000 objects deep', 'zz', `{"a":`.repeat(10_000) + '1' + '}'.repeat(10_000)],
    ['labels 65 lists deep', 'labels', `{"a":${'['.repeat(64)}1${']'.repeat(64)}}`],
    ['an unknown field 170,000 objects deep, almost the 1 MiB a body may be', 'zz', `{"a":`.repeat(170_000) + '1' + '}'.repeat(170_000)],
  ])('refuses a body nested deeper than 64 levels (%s) with a 400 naming the field, not a 502', async (_case, field, nested) => {
    const body = `${JSON.stringify(CREATE).slice(0, -1)},"${field}":${nested}}`;
    const res = await send('POST', '/agents', body);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: 'invalid_request',
      message: `invalid request: invalid JSON: field "${field}" nests objects and lists deeper than 64 levels`,
    });
    expect(service.calls).toEqual([]);
  });

  it.each([['empty', ''], ['whitespace only', ' \n\t ']])('answers an %s body with the documented text', async (_case, body) => {
    const res = await send('POST', '/agents', body);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_request', message: 'invalid request: a JSON body is required' });
  });

  it('answers malformed JSON with the parser reason', async () => {
    const res = await send('POST', '/agents', '{"name": ');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^invalid request: invalid JSON: \S/);
  });

  it.each([['an array', '[]'], ['a string', '"sre"'], ['null', 'null']])('refuses %s as the body', async (kind, body) => {
    const res = await send('POST', '/agents', body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`invalid request: invalid JSON: the body must be a JSON object, not ${kind}`);
  });

  it.each([
    ['name', { ...CREATE, name: 7 }, 'invalid request: invalid JSON: field "name" must be a string, not a number'],
    ['a list', { ...CREATE, toolset: 'preset:none' }, 'invalid request: invalid JSON: field "toolset" must be a list, not a string'],
    ['a list element', { ...CREATE, toolset: ['preset:none', 3] }, 'invalid request: invalid JSON: field "toolset[1]" must be a string, not a number'],
    ['a map value', { ...CREATE, labels: { team: true } }, 'invalid request: invalid JSON: field "labels.team" must be a string, not a boolean'],
    ['a nested field', { ...CREATE, skills: { gitRefs: [{ url: 1 }] } }, 'invalid request: invalid JSON: field "skills.gitRefs[0].url" must be a string, not a number'],
    ['force', { force: 'yes' }, 'invalid request: invalid JSON: field "force" must be a boolean, not a string'],
  ])('names the field of a value of the wrong type (%s)', async (_case, body, message) => {
    const path = 'force' in body ? '/agents/kagent/sre' : '/agents';
    const res = await json('force' in body ? 'PATCH' : 'POST', path, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
  });

  it.each([
    ['name', { modelConfig: 'm' }, 'invalid request: name is required'],
    ['modelConfig', { name: 'sre' }, 'invalid request: modelConfig is required'],
    ['a git url', { ...CREATE, skills: { gitRefs: [{ path: 'a' }] } }, 'invalid request: skills.gitRefs[0].url is required'],
  ])('says a required field (%s) is required', async (_case, body, message) => {
    const res = await json('POST', '/agents', body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
  });

  it('treats a JSON null as an absent field', async () => {
    const res = await json('POST', '/agents', { ...CREATE, description: null, skills: { refs: null } });
    expect(res.status).toBe(201);
    expect(service.inputs('createAgent')).toEqual([{ ...CREATE, skills: {} }]);
  });

  it('passes toolNames and an unknown runtime on, so the service explains them', async () => {
    const res = await json('POST', '/agents', { ...CREATE, toolNames: ['x'], runtime: 'rust' });
    expect(res.status).toBe(201);
    expect(service.inputs('createAgent')).toEqual([{ ...CREATE, toolNames: ['x'], runtime: 'rust' }]);
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const prefix = JSON.stringify({ ...CREATE, description: '' }).slice(0, -2);
    const body = `${prefix}${'x'.repeat(MAX_BODY_BYTES - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    const res = await send('POST', '/agents', body);
    expect(res.status).toBe(201);
  });

  it('refuses a body over 1 MiB with 413 and the error body', async () => {
    const res = await send('POST', '/agents', `{"name":"${'x'.repeat(MAX_BODY_BYTES)}"}`);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      error: { code: 'invalid_request', message: 'invalid request: the JSON body is larger than 1 MiB' },
    });
    expect(service.calls).toEqual([]);
  });
});

describe('REST query, path and body binding', () => {
  it.each([
    ['true', true], ['TRUE', true], ['True', true], ['false', false], ['FALSE', false],
  ])('reads force=%j as %j', async (value, want) => {
    const res = await send('DELETE', `/agents/kagent/sre?force=${value}`);
    expect(res.status).toBe(200);
    expect(service.inputs('deleteAgent')).toEqual([{ namespace: 'kagent', name: 'sre', force: want }]);
  });

  it.each(['1', 'yes', '', 'All'])('refuses force=%j with a 400 naming true and false, calling nothing', async (value) => {
    const res = await send('DELETE', `/agents/kagent/sre?force=${value}`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`invalid request: the query parameter force must be true or false; got ${JSON.stringify(value)}`);
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['query only', '?force=true', {}, true],
    ['body only', '', { force: true }, true],
    ['both, agreeing', '?force=true', { force: true }, true],
    ['neither', '', {}, undefined],
  ])('forces a PATCH from the query or the body (%s)', async (_case, query, body, want) => {
    const res = await json('PATCH', `/agents/tenant/sre${query}`, { description: 'd', ...body });
    expect(res.status).toBe(200);
    expect(service.inputs('updateAgent')).toEqual([
      { namespace: 'tenant', name: 'sre', description: 'd', ...(want ? { force: want } : {}) },
    ]);
  });

  it('refuses a query force and a body force that disagree, calling nothing', async () => {
    const res = await json('PATCH', '/agents/tenant/sre?force=false', { description: 'd', force: true });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('invalid request: the query force=false and the body "force": true disagree: send one of them');
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['DELETE', '/agents/kagent/sre?dryrun=true', '"dryrun"; did you mean dryRun? this route takes force, dryRun, mode, repository, branch, path, organization, cluster'],
    ['POST', '/agents?dry-run=true', '"dry-run"; did you mean dryRun? this route takes dryRun, mode, repository, branch, path, organization, cluster'],
    ['POST', '/agents/validate?namespace=x', '"namespace"; this route takes none'],
  ])('refuses a write (%s %s) with a query parameter it does not take, so a misspelt dryRun never writes', async (method, path, text) => {
    const res = method === 'DELETE' ? await send(method, path) : await json(method, path, CREATE);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`invalid request: unknown query parameter ${text}; nothing was written`);
    expect(service.calls).toEqual([]);
  });

  it('refuses a write whose string query parameter is given twice with different values (?mode=commit&mode=apply)', async () => {
    const res = await json('PATCH', '/agents/kagent/sre?mode=commit&mode=apply', { description: 'd' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('invalid request: the query parameter mode is given more than once with different values; send it once');
    expect(service.calls).toEqual([]);
  });

  it.each([
    ['/agents?namespce=tenant', '"namespce"; this route takes namespace, details, organization, cluster'],
    ['/agents/kagent/sre?_=1700000000', '"_"; this route takes organization, cluster'],
    ['/agents/kagent/sre/status?timeout=5', '"timeout"; this route takes organization, cluster, watch, timeoutSeconds, generation'],
    ['/agents/kagent/sre/status?watch=true&since=1', '"since"; this route takes organization, cluster, watch, timeoutSeconds, generation'],
    ['/skills?Refresh=true', '"Refresh"; did you mean refresh? this route takes repository, ref, refresh'],
  ])('refuses a read (GET %s) with a query parameter it does not take, listing those it takes', async (path, text) => {
    const res = await send('GET', path);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`invalid request: unknown query parameter ${text}`);
    expect(service.calls).toEqual([]);
  });

  it('takes the agent of a PATCH from the path, not the body', async () => {
    await json('PATCH', '/agents/tenant/sre', { name: 'other', namespace: 'kagent', displayName: '' });
    expect(service.inputs('updateAgent')).toEqual([{ namespace: 'tenant', name: 'sre', displayName: '' }]);
  });

  it('reads the list namespace and the skills flags from the query (first value wins)', async () => {
    await send('GET', '/agents?namespace=tenant&namespace=kagent');
    await send('GET', '/modelconfigs');
    await send('GET', '/skills?repository=https://github.com/o/r&ref=v1&refresh=TRUE&refresh=TRUE');
    expect(service.inputs('listAgents')).toEqual([{ namespace: 'tenant' }]);
    expect(service.inputs('listModelConfigs')).toEqual([{}]);
    expect(service.inputs('listSkills')).toEqual([{ repository: 'https://github.com/o/r', ref: 'v1', refresh: true }]);
  });

  it.each([
    ['GET', '/agents/kagent/%ZZ', '%ZZ'],
    ['PATCH', '/agents/%E0%A4%A/sre', '%E0%A4%A'],
    ['GET', '/agents/kagent/sre%/status', 'sre%'],
  ])('answers %s %s (malformed percent-encoding) with 400, not 502', async (method, path, param) => {
    const res = await send(method, path, method === 'PATCH' ? '{}' : undefined);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: 'invalid_request',
      message: `invalid request: the path segment "${param}" is not valid percent-encoding; encode the namespace and name as URL path segments`,
    });
    expect(service.calls).toEqual([]);
  });

  it('refuses a DELETE with a body, whose {"dryRun": true} would otherwise be ignored and the agent deleted', async () => {
    const res = await send('DELETE', '/agents/kagent/sre', '{"dryRun": true}');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(
      'invalid request: DELETE takes no body; send its options as query parameters (e.g. ?dryRun=true or ?force=true); nothing was done',
    );
    expect(service.calls).toEqual([]);
  });

  it('deletes with an empty body, whatever its Content-Type', async () => {
    const res = await send('DELETE', '/agents/kagent/sre?dryRun=true', ' ');
    expect(res.status).toBe(200);
    expect(service.inputs('deleteAgent')).toEqual([{ namespace: 'kagent', name: 'sre', dryRun: true }]);
  });

  it('turns a REST validate update into an update the way SpecToUpdate does (empty strings do not clear)', async () => {
    await json('POST', '/agents/validate', { name: 'sre', update: true, displayName: '', description: 'd', labels: {} });
    await json('POST', '/agents/validate', { name: 'sre', displayName: '' });
    expect(service.inputs('validateAgent')).toEqual([
      { mode: 'update', update: { name: 'sre', description: 'd', labels: {} } },
      { mode: 'create', spec: { name: 'sre', displayName: '', modelConfig: '' } },
    ]);
  });
});

describe('REST responses', () => {
  it('writes pretty JSON with a two-space indent, a trailing newline and Go-escaped HTML characters', async () => {
    const res = await send('GET', '/agents/kagent/sre');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text.startsWith('{\n  "name": "sre",\n  "namespace": "kagent",\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('"displayName": "SRE \\u003cAssistant\\u003e \\u0026 co"');
    expect((JSON.parse(text) as { displayName: string }).displayName).toBe('SRE <Assistant> & co');
  });

  it('answers create with 201 and the others with 200', async () => {
    expect((await json('POST', '/agents', CREATE)).status).toBe(201);
    expect((await json('POST', '/agents/validate', CREATE)).status).toBe(200);
    expect((await send('GET', '/info')).status).toBe(200);
  });

  it.each(Object.values(ErrorCode))('renders a %s AppError with its status and the error body', async (code) => {
    service.failWith(new AppError(code, 'something specific'));
    const res = await send('GET', '/agents/kagent/sre');
    expect(res.status).toBe(HTTP_STATUS[code]);
    expect(res.headers.get('content-type')).toBe('application/json');
    const message = code === 'backend_error' ? 'something specific' : `${code.replace(/_request$/, ' request').replace(/_found$/, ' found')}: something specific`;
    expect(await res.json()).toEqual({ error: { code, message } });
  });

  it('answers any other failure with 502 backend_error, its message only, and logs it at error', async () => {
    const failure = new Error('connect ECONNREFUSED 127.0.0.1:6443');
    service.failWith(failure);
    const res = await send('GET', '/agents');
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'backend_error', message: 'connect ECONNREFUSED 127.0.0.1:6443' } });
    expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
    const line = api.logs.find((l) => l.msg === 'request failed');
    expect(line).toMatchObject({ level: 50, status: 502, code: 'backend_error', path: '/api/v1/agents' });
  });

  it('logs a 501, a capability not offered here, at info with its message and no stack: no failure to page for', async () => {
    service.failWith(new AppError('unsupported', 'sessions are not offered by this installation'));
    const res = await send('GET', '/agents/kagent/sre');
    expect(res.status).toBe(501);
    expect(api.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const line = api.logs.find((l) => l.msg === 'request not offered here');
    expect(line).toMatchObject({ level: 30, status: 501, code: 'unsupported' });
    expect(line).not.toHaveProperty('err');
    expect(JSON.stringify(api.logs)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('answers an unknown path with 404 and a known path with another method with 405 and Allow', async () => {
    const missing = await send('GET', '/nope');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('not_found');
    const wrong = await send('PUT', '/agents');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await errorOf(wrong)).toEqual({
      code: 'invalid_request', message: 'invalid request: method PUT is not allowed on /api/v1/agents (allowed: GET, HEAD, POST)',
    });
  });

  it('matches paths as express 5 did: one trailing slash allowed, letter case kept, HEAD as GET', async () => {
    expect((await send('GET', '/info/')).status).toBe(200);
    expect((await send('GET', '/agents/kagent/sre-bot/')).status).toBe(200);
    expect((await send('GET', '/info//')).status).toBe(404);
    expect((await send('GET', '/INFO')).status).toBe(404);
    const head = await send('HEAD', '/info');
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('has no route with path parameters that matches a path without them, so looking those up answers the same', () => {
    const patterns = OPERATIONS.map((o) => o.rest.path);
    for (const plain of patterns.filter((p) => !p.includes(':'))) {
      for (const withParams of patterns.filter((p) => p.includes(':'))) {
        expect(match(withParams)(plain), `${withParams} matches ${plain}`).toBe(false);
      }
    }
  });

  it('serves the contract as YAML', async () => {
    const res = await send('GET', '/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(await res.text()).toContain('x-mcp-tool: create_agent');
  });
});

describe('REST request context', () => {
  it("runs the operation with the app's req.ctx when there is one", async () => {
    const own = await serveRouter(service, {
      before: [(req) => {
        req.ctx = { requestId: 'from-the-app', log: pino({ level: 'silent' }) };
      }],
    });
    try {
      await fetch(`${own.base}/info`);
      expect(service.calls.at(-1)!.ctx.requestId).toBe('from-the-app');
    } finally {
      await own.close();
    }
  });

  it('builds a context of its own without one', async () => {
    await send('GET', '/info');
    expect(service.calls.at(-1)!.ctx.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('REST integer query parameters', () => {
  it('reads a whole number and hands it on as a number', async () => {
    const res = await send('GET', '/agents/kagent/sre/wait?timeoutSeconds=30&until=deleted');
    expect(res.status).toBe(200);
    expect(service.inputs('waitForAgent')).toEqual([{ namespace: 'kagent', name: 'sre', timeoutSeconds: 30, until: 'deleted' }]);
  });

  it.each(['abc', '-5', '1.5', ''])('refuses %j with a 400 that names the parameter', async (value) => {
    const res = await send('GET', `/agents/kagent/sre/wait?timeoutSeconds=${value}`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`invalid request: timeoutSeconds must be a whole number in the query, got ${JSON.stringify(value)}`);
    expect(service.calls).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { OPERATIONS, type AnyOperation } from '../operations.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { serveRouterPerFile } from '../../../test/support/transport/serve-router.js';
import { nullRefusedFields } from '../input/null-fields.js';

const service = new FakeService();
const api = serveRouterPerFile(service);

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

/** A body each write route accepts, and the concrete path of the route. */
const ROUTES: Record<string, { path: string; body?: Record<string, unknown> }> = {
  create_agent: { path: '/agents', body: { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] } },
  update_agent: { path: '/agents/kagent/sre', body: { displayName: 'SRE' } },
  delete_agent: { path: '/agents/kagent/sre' },
  rollback_agent: { path: '/agents/kagent/sre/rollback', body: { revision: 1 } },
  validate_agent: { path: '/agents/validate', body: { name: 'sre', modelConfig: 'default-model-config' } },
  start_session: { path: '/agents/kagent/sre/sessions', body: { message: 'hello' } },
  send_message: { path: '/agents/kagent/sre/sessions/s-1/messages', body: { message: 'hello' } },
  plan_migration: { path: '/migrations' },
};

/** Two different values of each query parameter type, as query text and as JSON. */
const VALUES: Record<string, [{ text: string; json: unknown }, { text: string; json: unknown }]> = {
  mode: [{ text: 'apply', json: 'apply' }, { text: 'commit', json: 'commit' }],
  repository: [{ text: 'acme/gitops', json: 'acme/gitops' }, { text: 'acme/other', json: 'acme/other' }],
  branch: [{ text: 'main', json: 'main' }, { text: 'release', json: 'release' }],
  path: [{ text: 'clusters/a', json: 'clusters/a' }, { text: 'clusters/b', json: 'clusters/b' }],
  dryRun: [{ text: 'true', json: true }, { text: 'false', json: false }],
  force: [{ text: 'false', json: false }, { text: 'true', json: true }],
  refreshSkills: [{ text: 'true', json: true }, { text: 'false', json: false }],
  timeoutSeconds: [{ text: '30', json: 30 }, { text: '60', json: 60 }],
  organization: [{ text: 'acme', json: 'acme' }, { text: 'globex', json: 'globex' }],
  cluster: [{ text: 'alpha', json: 'alpha' }, { text: 'beta', json: 'beta' }],
  namespace: [{ text: 'kagent', json: 'kagent' }, { text: 'team', json: 'team' }],
};

const writes = OPERATIONS.filter((o) => o.rest.method !== 'get');
const route = (o: AnyOperation) => {
  const r = ROUTES[o.tool];
  if (!r) throw new Error(`no test route for ${o.tool}: add one to ROUTES`);
  return r;
};
const call = (o: AnyOperation, query: string, body?: Record<string, unknown>) =>
  fetch(`${api.base}${route(o).path}${query}`, {
    method: o.rest.method.toUpperCase(),
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

// Every (write route, query parameter it binds) pair whose route also reads a body.
const bound = writes.flatMap((o) => Object.keys(o.rest.query ?? {}).map((name) => [o.tool, name, o] as const));
const withBody = bound.filter(([, , o]) => o.rest.body);

describe('a write takes one value per parameter: query and body agree or the request is refused', () => {
  it('has a test route and two test values for every write and every parameter it binds', () => {
    for (const o of writes) expect(ROUTES[o.tool], o.tool).toBeDefined();
    for (const [, name] of bound) expect(VALUES[name], name).toBeDefined();
  });

  it.each(withBody)('%s: %s in the query and a different one in the body is a 400 naming both, calling nothing', async (_tool, name, o) => {
    const [query, other] = VALUES[name]!;
    const res = await call(o, `?${name}=${query.text}`, { ...route(o).body, [name]: other.json });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(
      `invalid request: the query ${name}=${query.text} and the body "${name}": ${JSON.stringify(other.json)} disagree: send one of them`,
    );
    expect(service.calls).toEqual([]);
  });

  it.each(withBody)('%s: %s given alike in the query and the body is taken once', async (tool, name, o) => {
    const [value] = VALUES[name]!;
    const res = await call(o, `?${name}=${value.text}`, { ...route(o).body, [name]: value.json });
    expect(res.status).toBeLessThan(300);
    expect(service.calls.map((c) => c.input)).toEqual([expect.objectContaining({ [name]: value.json })]);
    expect(tool).toBe(o.tool);
  });

  it.each(bound)('%s: %s from the query alone or the body alone reaches the service', async (_tool, name, o) => {
    const [, value] = VALUES[name]!;
    const fromQuery = await call(o, `?${name}=${value.text}`, route(o).body);
    expect(fromQuery.status).toBeLessThan(300);
    if (o.rest.body) {
      const fromBody = await call(o, '', { ...route(o).body, [name]: value.json });
      expect(fromBody.status).toBeLessThan(300);
    }
    const inputs = service.calls.map((c) => c.input);
    expect(inputs).toEqual(inputs.map(() => expect.objectContaining({ [name]: value.json })));
  });

  it.each([
    ['POST /agents?mode=apply with "mode": "commit"', 'POST', '/agents?mode=apply', { ...ROUTES.create_agent!.body, mode: 'commit' }, 'the query mode=apply and the body "mode": "commit"'],
    ['PATCH ?mode=apply with "mode": "commit"', 'PATCH', '/agents/kagent/sre?mode=apply', { displayName: 'x', mode: 'commit' }, 'the query mode=apply and the body "mode": "commit"'],
    ['a body path and another in the query', 'POST', '/agents?mode=commit&path=clusters/query', { ...ROUTES.create_agent!.body, mode: 'commit', path: 'clusters/body' }, 'the query path=clusters/query and the body "path": "clusters/body"'],
  ])('refuses %s', async (_case, method, path, body, both) => {
    const res = await fetch(`${api.base}${path}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`invalid request: ${both} disagree: send one of them`);
    expect(service.calls).toEqual([]);
  });
});

describe('a null safety switch or precondition in a REST body is refused, naming the field, as MCP refuses it', () => {
  const nullable = writes
    .filter((o) => o.rest.body)
    .flatMap((o) => [...nullRefusedFields(o.input)].map((field) => [o.tool, field, o] as const));

  it('covers the hostile dryRun, mode and version: null on create, update and rollback', () => {
    const pairs = nullable.map(([tool, field]) => `${tool}.${field}`);
    expect(pairs).toEqual(expect.arrayContaining(['create_agent.dryRun', 'update_agent.dryRun', 'rollback_agent.dryRun',
      'update_agent.force', 'create_agent.wait', 'rollback_agent.revision', 'create_agent.mode', 'update_agent.mode',
      'update_agent.version', 'update_agent.resourceVersion']));
  });

  it.each(nullable)('%s: "%s": null is a 400 and nothing is called', async (_tool, field, o) => {
    const res = await call(o, '', { ...route(o).body, [field]: null });
    expect(res.status).toBe(400);
    const { message } = await errorOf(res);
    if (field === 'mode') expect(message).toBe('invalid request: invalid JSON: field "mode": must be one of "apply", "commit", not null');
    else {
      const kind = ['wait', 'revision', 'timeoutSeconds'].includes(field) ? 'a number'
        : ['version', 'resourceVersion'].includes(field) ? 'a string' : 'a boolean';
      expect(message).toBe(`invalid request: invalid JSON: field "${field}" must be ${kind}, not null`);
    }
    expect(service.calls).toEqual([]);
  });

  it.each(nullable.filter(([, field, o]) => Object.hasOwn(o.rest.query ?? {}, field)))(
    '%s: "%s": null is refused even beside the same flag in the query', async (_tool, field, o) => {
      const res = await call(o, `?${field}=${VALUES[field]?.[0].text ?? 'true'}`, { ...route(o).body, [field]: null });
      expect(res.status).toBe(400);
      expect(service.calls).toEqual([]);
    },
  );

  it('still reads a null string or list as absent (the Go decoder\'s nil)', async () => {
    const res = await call(writes.find((o) => o.tool === 'update_agent')!, '', { displayName: null, toolset: null, description: 'd' });
    expect(res.status).toBe(200);
    expect(service.inputs('updateAgent')).toEqual([{ namespace: 'kagent', name: 'sre', description: 'd' }]);
  });
});

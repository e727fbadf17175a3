import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError, ErrorCode, GATEWAY_TIMEOUT_STATUS, HTTP_STATUS, PRECONDITION_FAILED_STATUS, SERVICE_UNAVAILABLE_STATUS,
  TOO_MANY_REQUESTS_STATUS, UNPROCESSABLE_STATUS,
} from '../../core/errors.js';
import { OPERATIONS, openApiPath, operationId, type AnyOperation } from '../operations.js';
import { FakeService, SAMPLE_AGENT, SAMPLE_INFO, SAMPLE_STATUS } from '../../../test/support/transport/fake-service.js';
import {
  documentedOperations, loadOpenApi, resolveParameter, SchemaValidator, type OpenApiOperation,
} from '../../../test/support/transport/openapi-schemas.js';
import { queryNames, STREAM_QUERY } from './rest-input.js';
import { serveRouter, type ServedRouter } from '../../../test/support/transport/serve-router.js';

const { doc } = loadOpenApi();
const documented = documentedOperations(doc);
const validator = new SchemaValidator(doc);
const key = (o: AnyOperation) => `${o.rest.method.toUpperCase()} ${openApiPath(o)}`;
const rows = OPERATIONS.map((o) => [o.tool, o] as const);

// REST-only routes: the contract itself has no MCP tool.
const REST_ONLY = new Set(['GET /api/v1/openapi.yaml']);

function parametersOf(op: OpenApiOperation & { path: string }) {
  const shared = doc.paths[op.path]!.parameters ?? [];
  return [...shared, ...(op.parameters ?? [])].map((p) => resolveParameter(doc, p));
}

describe('api/openapi.yaml against the operation table', () => {
  it('documents every route of the table, and nothing else besides the contract itself', () => {
    expect([...documented.keys()].filter((k) => !REST_ONLY.has(k)).sort()).toEqual(OPERATIONS.map(key).sort());
    for (const k of REST_ONLY) expect(documented.get(k)!['x-mcp-tool']).toBeUndefined();
  });

  it.each(rows)('names %s in x-mcp-tool, operationId, summary and its success status', (tool, o) => {
    const op = documented.get(key(o))!;
    expect(op['x-mcp-tool']).toBe(tool);
    expect(op.operationId).toBe(operationId(o));
    expect((op as unknown as { summary: string }).summary).toBe(o.title);
    const successes = Object.keys(op.responses).filter((s) => s.startsWith('2'));
    // A create also documents the 200 of its dry run and of commit mode, the one other status statusOf answers;
    // the status stream the 204 that stops an EventSource reconnecting after the end.
    const expected = o.rest.statusOf ? ['200', '201'] : o.rest.watch ? ['200', '204'] : [String(o.rest.status)];
    expect(successes).toEqual(expected);
  });

  it.each(rows)('documents the path and query parameters %s binds, with their types', (_tool, o) => {
    const params = parametersOf(documented.get(key(o))!);
    const pathParams = [...o.rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    expect(params.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParams);
    expect(params.filter((p) => p.in === 'path').every((p) => p.required)).toBe(true);
    const query = Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema.type]));
    // The status route's stream parameters are read by its stream handler, not by the operation's input.
    expect(query).toEqual({ ...o.rest.query, ...(o.rest.watch ? STREAM_QUERY : {}) });
    const headers = params.filter((p) => p.in === 'header').map((p) => p.name);
    // A read with an entity tag evaluates If-Match (not If-None-Match: its ETag does not cover readiness).
    // A create evaluates If-Match (any is false: nothing exists yet); If-None-Match is left to its 409.
    const preconditions = o.rest.ifMatch ? ['If-Match', 'If-None-Match'] : (o.rest.method === 'get' && o.rest.etag) || o.rest.createIfMatch ? ['If-Match'] : [];
    expect(headers).toEqual([...preconditions, ...(o.rest.githubToken ? ['X-GitHub-Token'] : [])]);
  });

  it.each(rows)('takes exactly the query parameters the document lists for %s, no fewer and no more', (_tool, o) => {
    // What the unknown-parameter guard lets through, against what a client reads it may send.
    const query = parametersOf(documented.get(key(o))!).filter((p) => p.in === 'query').map((p) => p.name);
    expect(queryNames(o).sort()).toEqual(query.sort());
  });

  it.each(rows.filter(([, o]) => o.rest.etag))('documents the ETag header of the success answer of %s, which sends one', (_tool, o) => {
    const responses = documented.get(key(o))!.responses as Record<string, { headers?: Record<string, unknown> }>;
    expect(responses[String(o.rest.status)]?.headers?.ETag).toBeDefined();
  });

  it.each(rows.filter(([, o]) => o.rest.ifMatch))('documents the 412 of a stale If-Match on %s', (_tool, o) => {
    expect(documented.get(key(o))!.responses['412']).toBeDefined();
  });

  it.each(rows)('documents a required JSON body for %s exactly when it reads one', (_tool, o) => {
    const body = documented.get(key(o))!.requestBody;
    if (o.rest.body) expect(body).toMatchObject({ required: true, content: { 'application/json': {} } });
    else expect(body).toBeUndefined();
  });

  it.each(rows.filter(([, o]) => o.rest.body))('documents the 413 and 415 of a body too large or not JSON on %s', (_tool, o) => {
    const { responses } = documented.get(key(o))!;
    expect(responses['413']).toBeDefined();
    expect(responses['415']).toBeDefined();
  });

  it.each(rows.filter(([, o]) => o.rest.body))('shows an example of the %s body, valid against its schema', (_tool, o) => {
    const media = documented.get(key(o))!.requestBody!.content['application/json']! as { schema: { $ref: string }; example?: unknown };
    expect(media.example).toBeDefined();
    expect(validator.errors(media.schema.$ref.split('/').at(-1)!, media.example)).toEqual([]);
  });

  it('shows an example Error, valid against the Error schema, on every error response', () => {
    type Responses = Record<string, { content: Record<string, { example?: unknown }> }>;
    const { responses } = doc.components as unknown as { responses: Responses };
    const errorResponses = Object.entries(responses).filter(([, r]) => r.content?.['application/json']);
    expect(errorResponses.length).toBeGreaterThan(10);
    for (const [name, response] of errorResponses) {
      const example = response.content['application/json']!.example as { error: { code: string; message: string } } | undefined;
      expect(example, name).toBeDefined();
      expect(validator.errors('Error', example), name).toEqual([]);
    }
  });

  it('documents only error statuses the REST layer produces, each with the Error body', () => {
    const producible = new Set(
      [
        ...Object.values(HTTP_STATUS), 413, 415, PRECONDITION_FAILED_STATUS, SERVICE_UNAVAILABLE_STATUS,
        UNPROCESSABLE_STATUS, TOO_MANY_REQUESTS_STATUS, GATEWAY_TIMEOUT_STATUS,
      ].map(String),
    );
    for (const op of documented.values()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith('2')) continue;
        expect(producible.has(status), `${op.operationId} ${status}`).toBe(true);
        expect(response.$ref, `${op.operationId} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
  });
});

describe('the documented schemas', () => {
  it('accept the wire shapes', () => {
    expect(validator.errors('Agent', SAMPLE_AGENT)).toEqual([]);
    expect(validator.errors('Status', SAMPLE_STATUS)).toEqual([]);
    expect(validator.errors('Info', SAMPLE_INFO)).toEqual([]);
  });

  it.each([
    ['an undeclared field', { ...SAMPLE_AGENT, harnessName: 'claude' }],
    ['a missing always-present field', { ...SAMPLE_AGENT, ready: undefined }],
    ['a wrong enum value', { ...SAMPLE_AGENT, managed: 'flux' }],
  ])('refuse an Agent with %s, so drift fails the tests', (_case, agent) => {
    expect(validator.errors('Agent', JSON.parse(JSON.stringify(agent)))).not.toEqual([]);
  });

  it('describe the create, update and validate bodies the table accepts', () => {
    const spec = { name: 'sre', modelConfig: 'm', toolset: ['preset:none'], skills: { gitRefs: [{ url: 'u' }] }, labels: { a: 'b' } };
    expect(validator.errors('Spec', spec)).toEqual([]);
    expect(validator.errors('Spec', { ...spec, x: 1 })).not.toEqual([]);
    expect(validator.errors('Spec', { name: 'sre', modelConfig: 'm' })).not.toEqual([]);
    expect(validator.errors('Update', { description: '', force: true })).toEqual([]);
    expect(validator.errors('ValidateRequest', { name: 'sre', update: true, force: false })).toEqual([]);
  });
});

describe('REST responses against the documented schemas', () => {
  const service = new FakeService();
  let api: ServedRouter;
  beforeAll(async () => {
    api = await serveRouter(service);
  });
  afterAll(() => api.close());

  const CALLS: Record<string, { path: string; body?: unknown }> = {
    get_info: { path: '/info' },
    list_agents: { path: '/agents?namespace=kagent' },
    get_agent: { path: '/agents/kagent/sre' },
    create_agent: { path: '/agents', body: { name: 'sre', modelConfig: 'm', toolset: ['preset:none'] } },
    update_agent: { path: '/agents/kagent/sre', body: { description: 'd' } },
    delete_agent: { path: '/agents/kagent/sre?force=true' },
    get_agent_status: { path: '/agents/kagent/sre/status' },
    validate_agent: { path: '/agents/validate', body: { name: 'sre', runtime: 'rust' } },
    list_model_configs: { path: '/modelconfigs' },
    list_harnesses: { path: '/harnesses?namespace=kagent' },
    list_skills: { path: '/skills?refresh=true' },
    list_agent_revisions: { path: '/agents/kagent/sre/revisions' },
    get_agent_revision: { path: '/agents/kagent/sre/revisions/1' },
    rollback_agent: { path: '/agents/kagent/sre/rollback', body: { revision: 1 } },
    wait_for_agent: { path: '/agents/kagent/sre/wait?until=ready&timeoutSeconds=5' },
    start_session: { path: '/agents/kagent/sre/sessions', body: { message: 'hello', requestId: 'r-1' } },
    send_message: { path: '/agents/kagent/sre/sessions/s-1/messages?timeoutSeconds=30', body: { message: 'and then?' } },
    list_sessions: { path: '/agents/kagent/sre/sessions' },
    get_session: { path: '/agents/kagent/sre/sessions/s-1' },
    plan_migration: { path: '/migrations?namespace=kagent&dryRun=true' },
  };

  async function call(o: AnyOperation) {
    const { path, body } = CALLS[o.tool]!;
    return fetch(`${api.base}${path}`, {
      method: o.rest.method.toUpperCase(),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  it.each(rows)('%s answers its documented status and schema', async (_tool, o) => {
    const res = await call(o);
    expect(res.status).toBe(o.rest.status);
    const schema = documented.get(key(o))!.responses[String(o.rest.status)]!.content!['application/json']!.schema;
    expect(validator.errorsFor(schema, await res.json())).toEqual([]);
  });

  it.each(rows)('%s answers errors in the documented Error schema', async (_tool, o) => {
    service.failWith(new AppError(ErrorCode.Conflict, 'x'));
    const res = await call(o);
    expect(res.status).toBe(409);
    expect(validator.errors('Error', await res.json())).toEqual([]);
  });
});

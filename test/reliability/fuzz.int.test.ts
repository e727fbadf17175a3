/**
 * A seeded stream of malformed requests against the real app over HTTP (fast-check,
 * bounded runs from the budget): REST bodies of create, update and validate, agent
 * names in paths, and MCP `tools/call` arguments of every agent tool, each a valid
 * request with one poison (support/malformed.ts). Claims, for every request:
 *
 * - the answer is a 4xx with an error code and a message (MCP: a tool error result or a
 *   JSON-RPC error, never `backend_error` or an internal error), and never a 5xx;
 * - nothing is written: the sandbox served no create, update, patch or delete;
 * - the service still answers afterwards (the next request is served normally).
 *
 * A dry run (validate) may instead answer 200 with `valid: false` and the reasons.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget, rerun } from './support/budget.js';
import type { HttpResponse } from './support/http.js';
import { badName, deepJson, poisoned, withKey, type Body, type Json, type Poisoned, type Shape } from './support/malformed.js';
import { startServedApp, writeCount, type ServedApp } from './support/service-app.js';

const B = budget();
const TARGET = 'fuzz-target';
const NEW_SPEC: Json = { name: 'fuzz-new', modelConfig: 'default-model-config', toolset: ['preset:none'], displayName: 'Fuzzed' };
/** Deepest nesting generated (the service refuses anything deeper than 64 levels). */
const MAX_DEPTH = 12_000;

/** fast-check's failure message names the seed and the path; the log line says how to rerun the whole file. */
const FC = { seed: B.seed };

let served: ServedApp;
let targetVersion: string;

beforeAll(async () => {
  console.log(`fuzz: ${B.fuzzRuns} runs per stream; to repeat: ${rerun(B)}`);
  served = await startServedApp();
  const created = await served.client.send('POST', '/api/v1/agents', {
    body: { name: TARGET, modelConfig: 'default-model-config', toolset: ['preset:read-only'], labels: { team: 'fuzz' } },
  });
  expect(created.status, created.text).toBe(201);
  targetVersion = resourceVersion();
});
afterAll(async () => {
  await served?.close();
});

function resourceVersion(): string {
  return String((served.fixture.sandbox.store.get('helmreleases', 'kagent', TARGET).metadata as { resourceVersion: string }).resourceVersion);
}

const bodyOf = (body: Body): string | Buffer => (typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body));
const CONTENT_TYPES = fc.constantFrom<Record<string, string>>(
  { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}, { 'content-type': 'application/x-www-form-urlencoded' },
);

/** What is wrong with a REST answer to a malformed request, or undefined. */
function restProblem(res: HttpResponse, dryRun: boolean): string | undefined {
  if (!res.complete) return 'the answer was cut off';
  // Node's HTTP parser refuses a request head over 32 KiB before the app sees it: no body to give.
  if (res.status === 431) return undefined;
  if (dryRun && res.status === 200) {
    return res.json?.valid === false && Array.isArray(res.json.errors) && res.json.errors.length > 0 ? undefined : 'a dry run of a malformed request said valid';
  }
  if (res.status < 400 || res.status > 499) return `status ${res.status}`;
  const error = res.json?.error;
  if (typeof error?.code !== 'string' || typeof error?.message !== 'string' || error.message.trim() === '') return 'no error code and message';
  return undefined;
}

/** What is wrong with an MCP answer to malformed arguments, or undefined. */
function mcpProblem(res: HttpResponse, tool: string, noRequest = false): string | undefined {
  if (!res.complete) return 'the answer was cut off';
  // A message without any request in it (an empty batch) has nothing to answer.
  if (noRequest && res.status === 202 && res.text === '') return undefined;
  if (res.status >= 500) return `status ${res.status}`;
  const body = res.json;
  if (res.status >= 400) return typeof body?.error?.message === 'string' ? undefined : `status ${res.status} without a JSON-RPC error`;
  if (body?.error) {
    if (body.error.code === -32603) return `an internal error: ${body.error.message}`;
    return typeof body.error.message === 'string' && body.error.message !== '' ? undefined : 'a JSON-RPC error without a message';
  }
  const result = body?.result;
  if (result?.isError === true) {
    const text = String(result.content?.[0]?.text ?? '');
    if (text.startsWith('backend_error')) return `a backend error: ${text.slice(0, 200)}`;
    return text.trim() === '' ? 'an error result without text' : undefined;
  }
  if (tool === 'validate_agent' && result?.structuredContent?.valid === false) return undefined;
  return 'the tool call succeeded';
}

/** Send, then check the answer, that nothing was written, and that the service still answers. */
async function refused(
  send: () => Promise<HttpResponse>, problemOf: (res: HttpResponse) => string | undefined, what: string,
): Promise<void> {
  const writes = writeCount(served.fixture);
  const res = await send();
  const problem = problemOf(res);
  expect(problem, `${what} → ${res.status} ${res.text.slice(0, 300)}`).toBeUndefined();
  expect(writeCount(served.fixture) - writes, `${what} wrote to the API server`).toBe(0);
}

const REST_CASES: Array<{ op: string; method: string; path: string; shape: Shape; base: Json; pathFields?: string[] }> =
  [
    { op: 'create', method: 'POST', path: '/api/v1/agents', shape: 'create', base: NEW_SPEC },
    {
      op: 'update', method: 'PATCH', path: `/api/v1/agents/kagent/${TARGET}`, shape: 'update',
      base: { description: 'changed by the fuzzer' }, pathFields: ['name', 'namespace'],
    },
    { op: 'validate', method: 'POST', path: '/api/v1/agents/validate', shape: 'validate', base: NEW_SPEC },
  ];

describe('malformed REST requests', () => {
  it.each(REST_CASES)('$method $path ($op): a 4xx with a message, no write, for every malformed body', async ({ op, method, path, shape, base, pathFields }) => {
    const arb = fc.tuple(poisoned({ base, shape, pathFields, maxDepth: MAX_DEPTH, raw: true }), CONTENT_TYPES);
    await fc.assert(fc.asyncProperty(arb, async ([p, headers]: [Poisoned, Record<string, string>]) => {
      await refused(
        () => served.client.send(method, path, { body: bodyOf(p.body), headers }),
        (res) => restProblem(res, op === 'validate'),
        `${op} with ${p.kind}`,
      );
    }), { ...FC, numRuns: B.fuzzRuns });
    expect(resourceVersion()).toBe(targetVersion);
  });

  it('bad agent names in paths and junk query flags: a 4xx with a message, no write', async () => {
    const arb = fc.tuple(
      badName,
      fc.constantFrom('GET /status', 'DELETE', 'GET', 'PATCH'),
      fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    );
    await fc.assert(fc.asyncProperty(arb, async ([name, call, flag]) => {
      const [method, suffix = ''] = call.split(' ');
      const query = flag === undefined ? '' : `?force=${encodeURIComponent(flag)}&namespace=${encodeURIComponent(flag)}`;
      // Dots encoded too, so `.` and `..` reach the router as names instead of being resolved away.
      const path = `/api/v1/agents/kagent/${encodeURIComponent(name).replace(/\./g, '%2E')}${suffix}${query}`;
      await refused(
        () => served.client.send(method!, path, method === 'PATCH' ? { body: { description: 'x' } } : {}),
        (res) => restProblem(res, false),
        `${call} of ${JSON.stringify(name.slice(0, 80))}`,
      );
    }), { ...FC, numRuns: B.fuzzRuns });
    expect(resourceVersion()).toBe(targetVersion);
  });

  it('still serves a valid request after the stream', async () => {
    const res = await served.client.send('GET', `/api/v1/agents/kagent/${TARGET}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: TARGET, toolset: ['preset:read-only'] });
  });
});

const MCP_CASES: Array<{ tool: string; shape: Shape; base: Json }> = [
  { tool: 'create_agent', shape: 'create', base: NEW_SPEC },
  { tool: 'update_agent', shape: 'update', base: { name: TARGET, description: 'changed by the fuzzer' } },
  { tool: 'validate_agent', shape: 'validate', base: NEW_SPEC },
  { tool: 'delete_agent', shape: 'delete', base: { name: TARGET } },
  { tool: 'get_agent', shape: 'ref', base: { name: TARGET } },
  { tool: 'get_agent_status', shape: 'ref', base: { name: TARGET } },
];

describe('malformed MCP tool arguments', () => {
  it.each(MCP_CASES)('$tool: an error result or JSON-RPC error with a message, no write, for every malformed argument', async ({ tool, shape, base }) => {
    const arb = poisoned({ base, shape, maxDepth: MAX_DEPTH, raw: false });
    let id = 0;
    await fc.assert(fc.asyncProperty(arb, async (p: Poisoned) => {
      const request = typeof p.body === 'string'
        // Raw JSON text of the arguments (deep nesting): spliced into the JSON-RPC message as it is.
        ? `{"jsonrpc":"2.0","id":${++id},"method":"tools/call","params":{"name":"${tool}","arguments":${p.body}}}`
        : JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool, arguments: p.body } });
      await refused(
        () => served.client.send('POST', '/mcp', { body: request, headers: { accept: 'application/json, text/event-stream' } }),
        (res) => mcpProblem(res, tool),
        `${tool} with ${p.kind}`,
      );
    }), { ...FC, numRuns: B.fuzzRuns });
    expect(resourceVersion()).toBe(targetVersion);
  });

  it('arguments that are not an object, unknown tools and broken JSON-RPC: refused, no write', async () => {
    const arb = fc.oneof(
      fc.tuple(fc.constantFrom('create_agent', 'delete_agent', 'update_agent'), fc.oneof(fc.string(), fc.integer(), fc.array(fc.string()), fc.boolean()))
        .map(([tool, args]) => ({ what: `${tool} with arguments ${JSON.stringify(args).slice(0, 40)}`, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } } as unknown })),
      fc.string({ maxLength: 30 }).filter((t) => !['list_agents', 'get_info', 'list_model_configs', 'list_skills'].includes(t))
        .map((tool) => ({ what: `unknown tool ${JSON.stringify(tool)}`, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: { name: TARGET } } } as unknown })),
      fc.constantFrom('', '{', '[]', 'null', '{"jsonrpc":"2.0"}', '{"jsonrpc":"1.0","id":1,"method":"tools/call"}', '{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{"name":"delete_agent","arguments":{"name":"fuzz-target"}}}')
        .map((text) => ({ what: `JSON-RPC text ${JSON.stringify(text)}`, body: text as unknown })),
      fc.integer({ min: (1 << 20) + 1, max: (1 << 20) + 100_000 })
        .map((n) => ({ what: 'a body over 1 MiB', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'delete_agent', arguments: { name: TARGET, pad: 'x'.repeat(n) } } }) as unknown })),
    );
    await fc.assert(fc.asyncProperty(arb, async ({ what, body }) => {
      await refused(
        () => served.client.send('POST', '/mcp', { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { accept: 'application/json, text/event-stream' } }),
        (res) => mcpProblem(res, '', what.startsWith('JSON-RPC text')),
        what,
      );
    }), { ...FC, numRuns: Math.ceil(B.fuzzRuns / 2) });
    expect(resourceVersion()).toBe(targetVersion);
  });
});

/**
 * Defects this suite found, fixed since (eac78dd, 32b27cc, e120fed): kept as regression
 * tests beside the streams, which generate these inputs too.
 */
describe('defects the fuzzer found, now fixed', () => {
  it('REST: a body with objects nested 10,000 deep gets a 400, not a 502 "Maximum call stack size exceeded"', async () => {
    const body = `{"name":"deep-body","modelConfig":"default-model-config","toolset":["preset:none"],"zz":${deepJson(10_000, 'object')}}`;
    await refused(() => served.client.send('POST', '/api/v1/agents', { body }), (res) => restProblem(res, false), '10,000-deep object');
  });

  it('REST: a label map whose "__proto__" key holds an object is refused, not dropped', async () => {
    const body = JSON.stringify({ ...NEW_SPEC, name: 'proto-labels', labels: withKey({}, '__proto__', { team: 'x' }) });
    await refused(() => served.client.send('POST', '/api/v1/agents', { body }), (res) => restProblem(res, false), 'labels {"__proto__": {…}}');
  });

  it('MCP: an argument named "__proto__" is refused as unknown, not ignored', async () => {
    const victim = await served.client.callTool('create_agent', { name: 'proto-victim', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    expect(victim.json?.result?.isError).toBeFalsy();
    const request = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"delete_agent","arguments":{"name":"proto-victim","__proto__":{"x":1}}}}';
    await refused(
      () => served.client.send('POST', '/mcp', { body: request, headers: { accept: 'application/json, text/event-stream' } }),
      (res) => mcpProblem(res, 'delete_agent'),
      'delete_agent with a __proto__ argument',
    );
    expect(served.fixture.sandbox.store.find('helmreleases', 'kagent', 'proto-victim')).toBeDefined();
  });

  it('REST and MCP: get_agent of a 20,000-character name finds nothing, with no 502 from the URL limit', async () => {
    const rest = await served.client.send('GET', `/api/v1/agents/kagent/${'a'.repeat(20_000)}`);
    expect(restProblem(rest, false)).toBeUndefined();
    const mcp = await served.client.callTool('get_agent', { name: 'a'.repeat(40_000) });
    expect(mcpProblem(mcp, 'get_agent')).toBeUndefined();
  });

  it.each(['', '.', '..'])('REST and MCP: get_agent of the name %j finds nothing instead of reading the collection', async (name) => {
    const rest = await served.client.send('GET', `/api/v1/agents/kagent/${name.replace(/\./g, '%2E')}`);
    expect(rest.status).toBe(404);
    const mcp = await served.client.callTool('get_agent', { name });
    expect(mcp.json?.result?.isError).toBe(true);
  });

  it('MCP: arguments that are not an object get -32602 invalid params, not -32603', async () => {
    const res = await served.client.send('POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_agent', arguments: 'fuzz-target' } },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.json?.error?.code).toBe(-32602);
  });
});

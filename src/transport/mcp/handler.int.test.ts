import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { silentLogger } from '../../log/logger.js';
import { Metrics } from '../../metrics/app-metrics.js';
import { requestContext } from '../http/context.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';
import { OPERATIONS } from '../operations.js';
import { MCP_MAX_BODY_BYTES, createMcpHandler } from './handler.js';
import { MCP_INSTRUCTIONS } from './instructions.js';
import { FakeService, SAMPLE_INFO } from '../../../test/support/transport/fake-service.js';

const ACCEPT = 'application/json, text/event-stream';

describe('the MCP endpoint (stateless streamable HTTP)', () => {
  let served: ServedHandler;
  let url: string;
  let service: FakeService;
  let metrics: Metrics;
  const clients: Client[] = [];

  beforeAll(async () => {
    service = new FakeService();
    metrics = new Metrics({ processMetrics: false });
    const context = requestContext(silentLogger());
    const mcp = createMcpHandler({ service, log: silentLogger(), version: '9.9.9', metrics });
    served = await serveHandler(async (req, res) => {
      await context(req, res);
      await mcp(req, res);
    });
    url = `${served.url}/mcp`;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  afterAll(() => served.close());

  async function connect(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  function text(result: unknown): string {
    const content = (result as CallToolResult).content;
    expect(content).toHaveLength(1);
    expect(content[0]!.type).toBe('text');
    return (content[0] as { text: string }).text;
  }

  async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: JSON.stringify(body),
    });
  }

  it('introduces itself as agent-manager with tools (no listChanged) and the instructions', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toEqual({ name: 'agent-manager', version: '9.9.9' });
    expect(client.getServerCapabilities()?.tools).toEqual({});
    expect(client.getInstructions()).toBe(MCP_INSTRUCTIONS);
  });

  it('lists every operation of the table as a tool with its title, description, four hints and input schema', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((o) => o.tool));
    for (const operation of OPERATIONS) {
      const tool = tools.find((t) => t.name === operation.tool)!;
      expect(tool.title).toBe(operation.title);
      expect(tool.description).toBe(operation.description);
      expect(tool.annotations).toEqual({ title: operation.title, ...operation.annotations });
      const schema = JSON.parse(JSON.stringify(z.toJSONSchema(operation.input, { target: 'draft-7', io: 'input' }))) as { required?: string[]; properties?: Record<string, unknown> };
      // The removed toolNames is accepted (and refused by the service) but never advertised.
      delete schema.properties?.toolNames;
      const required = [...(schema.required ?? []), ...(operation.serviceRequired ?? [])];
      expect(tool.inputSchema).toEqual({ ...schema, ...(required.length > 0 ? { required } : {}) });
      expect(tool.inputSchema.additionalProperties).toBe(false);
    }
  });

  it('advertises create_agent\'s toolset as required, as its description (REQUIRED) and the OpenAPI Spec say', async () => {
    const { tools } = await (await connect()).listTools();
    const create = tools.find((t) => t.name === 'create_agent')!;
    expect(create.description).toContain('toolset');
    expect([...(create.inputSchema.required ?? [])].sort()).toEqual(['modelConfig', 'name', 'toolset']);
  });

  it('names in its instructions only error codes a tool can answer with', () => {
    const listed = /starts with its code \(([^)]*)\)/.exec(MCP_INSTRUCTIONS)?.[1]?.split(', ');
    expect(listed).toEqual(['invalid_request', 'not_found', 'conflict', 'forbidden', 'unauthenticated', 'unsupported', 'backend_error']);
    expect(MCP_INSTRUCTIONS).not.toContain('gitops_owned');
  });

  it('answers a call with the result as pretty JSON text and as structuredContent', async () => {
    const result = await (await connect()).callTool({ name: 'get_info', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(JSON.stringify(SAMPLE_INFO, null, 2));
    expect(text(result)).toContain('"identity": "serviceAccount"');
    expect(result.structuredContent).toEqual(SAMPLE_INFO);
  });

  it('runs the tool with the request context of the HTTP request that carried it', async () => {
    const client = await connect({ 'X-Request-Id': 'req-mcp-1' });
    await client.callTool({ name: 'get_agent', arguments: { name: 'sre', namespace: 'kagent' } });
    const call = service.calls.filter((c) => c.method === 'getAgent').at(-1)!;
    expect(call.ctx.requestId).toBe('req-mcp-1');
    expect(call.input).toEqual({ name: 'sre', namespace: 'kagent' });
  });

  it.each([
    ['an unknown field', { name: 'sre', nmae: 'x' }, 'invalid_request: invalid request: unknown field "nmae" (get_agent takes: name, namespace, organization, cluster)'],
    ['a wrong type', { name: 7 }, 'invalid_request: invalid request: invalid JSON: field "name" must be a string, not a number'],
    ['a missing name', {}, 'invalid_request: invalid request: name is required'],
  ])('answers %s with an isError result, not a protocol error', async (_case, args, message) => {
    const result = await (await connect()).callTool({ name: 'get_agent', arguments: args });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(message);
  });

  it.each([
    ['a string', 'sre'],
    ['a number', 7],
    ['a list', ['sre']],
  ])('answers tools/call arguments that are %s with a JSON-RPC invalid params error (-32602), not an internal error', async (_case, args) => {
    const res = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_agent', arguments: args } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; error?: { code: number; message: string } };
    expect(body.id).toBe(3);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain('arguments');
    expect(service.calls.filter((c) => c.method === 'getAgent' && c.input === args)).toHaveLength(0);
  });

  it('refuses an argument named "__proto__" as an unknown field, so the call never runs', async () => {
    const before = service.calls.length;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"delete_agent","arguments":{"name":"sre","__proto__":{"force":true}}}}',
    });
    const body = (await res.json()) as { result: CallToolResult };
    expect(body.result.isError).toBe(true);
    expect(text(body.result)).toBe('invalid_request: invalid request: unknown field "__proto__" (delete_agent takes: name, namespace, organization, cluster, force, dryRun, resourceVersion, version, mode, repository, branch, path)');
    expect(service.calls.length).toBe(before);
  });

  it('refuses a message that gives a key twice (JSON.parse would keep the last: a real write), naming it, so the call never runs', async () => {
    const before = service.calls.length;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"update_agent","arguments":{"name":"sre","description":"d","dryRun":true,"dryRun":false}}}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0', id: null,
      error: { code: -32600, message: 'Invalid Request: field "params.arguments.dryRun" is given twice; send each field once' },
    });
    expect(service.calls.length).toBe(before);
  });

  it('answers a service refusal with "<code>: <message>"', async () => {
    service.failWith(notFound('agent kagent/ghost'), 'getAgentStatus');
    const result = await (await connect()).callTool({ name: 'get_agent_status', arguments: { name: 'ghost' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('not_found: not found: agent kagent/ghost');
  });

  it('answers an unexpected failure as backend_error without a stack trace', async () => {
    service.failWith(new Error('socket hang up'), 'listSkills');
    const result = await (await connect()).callTool({ name: 'list_skills', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('backend_error: socket hang up');
  });

  it.each([
    ['an initialize without protocolVersion', { method: 'initialize', params: { capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      'Invalid params of initialize: params.protocolVersion: required'],
    ['a tools/call without params', { method: 'tools/call' }, 'Invalid params of tools/call: params: required'],
    ['a tools/call whose name is a number', { method: 'tools/call', params: { name: 5 } },
      'Invalid params of tools/call: params.name: expected string, received number'],
  ])('answers %s with -32602 invalid params naming the field, not -32603 with a JSON dump', async (_case, request, message) => {
    const res = await post({ jsonrpc: '2.0', id: 5, ...request }, { 'mcp-protocol-version': '2025-06-18' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32602, message } });
  });

  it('answers tools/list with a cursor it never issued with -32602 invalid params, as MCP pagination asks', async () => {
    const client = await connect();
    const error = await client.listTools({ cursor: 'page-2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toMatch(/^MCP error -32602: invalid cursor: tools\/list answers every tool on one page/);
    expect((await client.listTools()).nextCursor).toBeUndefined();
  });

  it('answers an unknown tool with a JSON-RPC invalid params error naming the tools', async () => {
    const client = await connect();
    const error = await client.callTool({ name: 'drop_database', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toMatch(/^MCP error -32602: unknown tool "drop_database"; the tools are: get_info, list_agents/);
    // On the wire the message is the words alone; the code is its own field.
    const res = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'drop_database' } }, { 'mcp-protocol-version': '2025-06-18' });
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^unknown tool "drop_database"; the tools are: /);
  });

  it('records each tool call by tool and outcome', async () => {
    const client = await connect();
    await client.callTool({ name: 'list_agents', arguments: {} });
    await client.callTool({ name: 'list_agents', arguments: { bogus: true } });
    const text = (await metrics.scrape()).body;
    expect(text).toMatch(/mcp_server_operation_duration_seconds_count\{tool="list_agents",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/mcp_server_operation_duration_seconds_count\{tool="list_agents",outcome="tool_error"\} [1-9]/);
  });

  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405, Allow: POST and a JSON-RPC error', async (method) => {
    const res = await fetch(url, { method, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/^Method not allowed/);
  });

  it('initializes a client speaking protocol version 2024-11-05 (muster) and issues no session id', async () => {
    const res = await post({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'muster-aggregator', version: '1.0.0' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } };
    expect(body.result.protocolVersion).toBe('2024-11-05');
    expect(body.result.serverInfo.name).toBe('agent-manager');
  });

  it('answers a pooled session after a restart: any Mcp-Session-Id, no initialize on this instance', async () => {
    const res = await post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_info', arguments: {} } },
      { 'mcp-session-id': 'mcp-session-3f1d7c3e-0000-4000-8000-000000000000', 'mcp-protocol-version': '2024-11-05' },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; result: CallToolResult };
    expect(body.id).toBe(7);
    expect(body.result.isError).toBeFalsy();
    expect(text(body.result)).toContain('"identity": "serviceAccount"');
  });

  it('accepts a notification with 202', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.status).toBe(202);
  });

  it('refuses JSON that is no JSON-RPC message (null) as an Invalid Request naming what is wrong, not a 5xx', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: 'null' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a JSON-RPC message is an object, not null' },
    });
  });

  it('keeps the parse error (-32700) for a body that is not JSON, as JSON-RPC defines it', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: '{"jsonrpc":' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('refuses an empty batch as an Invalid Request instead of accepting it as notifications (202)', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: '[]' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number; message: string } }).error).toEqual({
      code: -32600, message: 'Invalid Request: the batch is empty; send a JSON-RPC message',
    });
  });

  it('answers a wrong Accept header first (406), whatever the body', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"foo":1}' });
    expect(res.status).toBe(406);
  });

  it('refuses a body over the limit with 413, declared or streamed without a length', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(MCP_MAX_BODY_BYTES)}"}}`;
    const declared = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: big });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('refuses a body that is not JSON with a JSON-RPC parse error', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: '{' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('reads the Accept header as HTTP does: types in any letter case, and q=0 as not acceptable', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(ping, { accept: 'Application/JSON, Text/Event-Stream' })).status).toBe(200);
    expect((await post(ping, { accept: 'application/json;q=0.5, text/event-stream;q=0.1' })).status).toBe(200);
    expect((await post(ping, { accept: 'application/json;q=0, text/event-stream' })).status).toBe(406);
    expect((await post(ping, { accept: 'application/json, text/event-stream; q=0.0' })).status).toBe(406);
  });

  it('refuses a batch under a protocol version without batches (2025-06-18 on), and answers one before it', async () => {
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }];
    const refused = await post(batch, { 'mcp-protocol-version': '2025-06-18' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32600, message: expect.stringContaining('has no JSON-RPC batches'),
    });
    expect((await post(batch, { 'mcp-protocol-version': '2025-11-25' })).status).toBe(400);
    const answered = await post(batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toHaveLength(2);
  });

  it('ignores the task augmentation of a call (no tasks capability), running it as any other', async () => {
    const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_info', arguments: {}, task: {} } },
      { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result?: { isError?: boolean }; error?: unknown };
    expect(body.error).toBeUndefined();
    expect(body.result?.isError).toBeFalsy();
  });

  it('reads a body as REST does: gzip decoded, an unknown coding or charset a 415, bytes that are not UTF-8 a parse error', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = { 'content-type': 'application/json', accept: ACCEPT };
    const gzipped = await fetch(url, { method: 'POST', headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipSync(ping) });
    expect(gzipped.status).toBe(200);
    expect(await gzipped.json()).toMatchObject({ id: 1, result: {} });
    const bogus = await fetch(url, { method: 'POST', headers: { ...headers, 'content-encoding': 'bogus' }, body: ping });
    expect(bogus.status).toBe(415);
    expect(bogus.headers.get('accept-encoding')).toContain('gzip');
    const latin1 = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json; charset=iso-8859-1' }, body: ping });
    expect(latin1.status).toBe(415);
    const broken = await fetch(url, { method: 'POST', headers: { ...headers, 'content-encoding': 'gzip' }, body: 'not gzip' });
    expect(broken.status).toBe(400);
    const notUtf8 = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}}')]);
    const refused = await fetch(url, { method: 'POST', headers, body: notUtf8 });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

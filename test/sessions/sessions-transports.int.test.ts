/**
 * The session tools through both surfaces of the real app, over the sandbox whose kagent
 * controller serves A2A: with the MCP SDK's own client, create_agent → wait_for_agent →
 * start_session (progress notifications per status update) → send_message →
 * list_sessions → get_session, with the responder's answers; over REST the same loop, the
 * 201 with Location, the text/event-stream answer (`update` events, then `turn`), the
 * requestId idempotency and the refusals (400 length, 404, 409, 501) as JSON errors.
 */
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSessions } from '../support/service/fixture.js';
import { serveMcp, type ServedMcp } from '../mcp/served-mcp.js';

let served: ServedMcp;
let off: ServedMcp;
let api: string;

const json = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as any;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

beforeAll(async () => {
  [served, off] = await Promise.all([
    serveMcp('sessions-test', { sandbox: { controllers: true, reconcileDelayMs: 20 }, sessions: sandboxSessions() }),
    serveMcp('sessions-off'),
  ]);
  api = served.url.replace(/\/mcp$/, '/api/v1');
});
afterAll(async () => {
  await Promise.all([served?.close(), off?.close()]);
});

describe('the session tools over MCP', () => {
  it('creates, waits, starts a session, continues it, lists and reads it back', async () => {
    const { client } = served;
    const created = await client.callTool({ name: 'create_agent', arguments: { name: 'mcp-talker', displayName: 'MCP Talker', modelConfig: 'default-model-config', toolset: ['preset:none'] } }) as CallToolResult;
    expect(created.isError).toBeFalsy();
    const waited = await client.callTool({ name: 'wait_for_agent', arguments: { name: 'mcp-talker', timeoutSeconds: 60 } }) as CallToolResult;
    expect(json(waited).verdict).toBe('ready');

    const progress: Progress[] = [];
    const started = await client.callTool(
      { name: 'start_session', arguments: { name: 'mcp-talker', message: 'good morning', sessionName: 'from MCP' } },
      undefined, { onprogress: (p) => progress.push(p) },
    ) as CallToolResult;
    expect(started.isError).toBeFalsy();
    const first = json(started);
    expect(first.turn).toMatchObject({ complete: true, state: 'TASK_STATE_COMPLETED', text: 'Hello, I am MCP Talker. You said: good morning' });
    expect(progress.map((p) => p.message)).toContain('TASK_STATE_WORKING: thinking');

    const next = json(await client.callTool({ name: 'send_message', arguments: { name: 'mcp-talker', sessionId: first.session.id, message: 'Which tools?' } }) as CallToolResult);
    expect(next.turn.text).toBe('My toolset: preset:none');
    const listed = json(await client.callTool({ name: 'list_sessions', arguments: { name: 'mcp-talker' } }) as CallToolResult);
    expect(listed.sessions).toEqual([expect.objectContaining({ id: first.session.id, name: 'from MCP', turns: 2 })]);
    const detail = json(await client.callTool({ name: 'get_session', arguments: { name: 'mcp-talker', sessionId: first.session.id } }) as CallToolResult);
    expect(detail.tasks).toHaveLength(2);
  });

  it('answers a refusal as a tool error with its code', async () => {
    const long = await served.client.callTool({ name: 'start_session', arguments: { name: 'mcp-talker', message: 'x'.repeat(32_001) } }) as CallToolResult;
    expect(long.isError).toBe(true);
    expect((long.content[0] as { text: string }).text).toBe('invalid_request: invalid request: message is 32001 characters; at most 32000 are accepted (send long material in several messages)');
    const offCall = await off.client.callTool({ name: 'list_sessions', arguments: { name: 'x' } }) as CallToolResult;
    expect((offCall.content[0] as { text: string }).text).toMatch(/^unsupported: .*--kagent-a2a-url/);
  });

  it('lists the session tools with message required', async () => {
    const tools = (await served.client.listTools()).tools;
    const start = tools.find((t) => t.name === 'start_session')!;
    expect(start.inputSchema.required).toEqual(expect.arrayContaining(['name', 'message']));
    expect(start.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
  });
});

describe('the session routes over REST', () => {
  beforeAll(async () => {
    const created = await post('/agents', { name: 'rest-talker', displayName: 'REST Talker', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 });
    expect(created.status).toBe(201);
  });

  it('starts with 201 and Location, continues, lists and reads back', async () => {
    const res = await post('/agents/kagent/rest-talker/sessions', { message: 'hello there' });
    expect(res.status).toBe(201);
    const body = await res.json() as any;
    expect(res.headers.get('location')).toBe(`/api/v1/agents/kagent/rest-talker/sessions/${body.session.id}`);
    expect(body.turn.text).toBe('Hello, I am REST Talker. You said: hello there');
    const next = await post(`/agents/kagent/rest-talker/sessions/${body.session.id}/messages`, { message: 'echo me' });
    expect(next.status).toBe(200);
    expect(((await next.json()) as any).turn.text).toBe('You said: echo me');
    const listed = await (await fetch(`${api}/agents/kagent/rest-talker/sessions`)).json() as any;
    expect(listed.sessions.map((s: any) => s.id)).toContain(body.session.id);
    const detail = await fetch(`${api}/agents/kagent/rest-talker/sessions/${body.session.id}`);
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as any).tasks).toHaveLength(2);
  });

  it('streams the turn as text/event-stream: update events, then the turn', async () => {
    const res = await post('/agents/kagent/rest-talker/sessions', { message: 'stream it' }, { accept: 'text/event-stream' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text()).trim().split('\n\n').map((block) => {
      const lines = block.split('\n');
      return { event: lines.find((l) => l.startsWith('event: '))!.slice(7), data: JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) };
    });
    expect(events.filter((e) => e.event === 'update').length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)!.event).toBe('turn');
    expect(events.at(-1)!.data.turn).toMatchObject({ complete: true, text: 'Hello, I am REST Talker. You said: stream it' });
    expect(res.headers.get('location')).toBe(`/api/v1/agents/kagent/rest-talker/sessions/${events.at(-1)!.data.session.id}`);
  });

  it('answers the same session for the same requestId', async () => {
    const a = await (await post('/agents/kagent/rest-talker/sessions', { message: 'once', requestId: 'portal-1' })).json() as any;
    const b = await (await post('/agents/kagent/rest-talker/sessions', { message: 'once', requestId: 'portal-1' })).json() as any;
    expect(b.session.id).toBe(a.session.id);
    expect(b.turn.taskId).toBe(a.turn.taskId);
    expect(b.session.turns).toBe(1);
  });

  it.each([
    ['a message too long', '/agents/kagent/rest-talker/sessions', { message: 'z'.repeat(32_001) }, 400, 'invalid request: message is 32001 characters'],
    ['a sessionName too long', '/agents/kagent/rest-talker/sessions', { message: 'hi', sessionName: 's'.repeat(201) }, 400, 'invalid request: sessionName is 201 characters'],
    ['an unknown field', '/agents/kagent/rest-talker/sessions', { message: 'hi', colour: 'red' }, 400, 'invalid request'],
    ['an agent that does not exist', '/agents/kagent/nobody/sessions', { message: 'hi' }, 404, 'not found'],
    ['a session that is not there', '/agents/kagent/rest-talker/sessions/nope/messages', { message: 'hi' }, 404, 'not found: session nope'],
  ])('refuses %s as a JSON error, also when a stream was asked for', async (_name, path, body, status, text) => {
    for (const accept of ['application/json', 'text/event-stream']) {
      const res = await post(path, body, { accept });
      expect(res.status).toBe(status);
      expect(((await res.json()) as any).error.message.startsWith(text)).toBe(true);
    }
  });

  it('is 501 without an A2A endpoint', async () => {
    const res = await fetch(`${off.url.replace(/\/mcp$/, '/api/v1')}/agents/kagent/x/sessions`);
    expect(res.status).toBe(501);
  });
});

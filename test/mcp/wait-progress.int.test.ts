/**
 * wait_for_agent through MCP with the SDK's own client (Client +
 * StreamableHTTPClientTransport) against the real app, AgentService and the sandbox with
 * its controllers running: a call with a progress token (the client's `onprogress`)
 * receives progress notifications, each carrying the summary of a verdict change, on
 * the call's own response stream before its result; a call without one is still
 * answered with one plain JSON body. The tests run at once, each on an agent of its own.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcp, type ServedMcp } from './served-mcp.js';

let served: ServedMcp;
let url: string;
let client: Client;

const SPEC = { modelConfig: 'default-model-config', toolset: ['preset:none'] };

beforeAll(async () => {
  served = await serveMcp('wait-test', { sandbox: { controllers: true, reconcileDelayMs: 10, authorization: 'rbac' } });
  ({ url, client } = served);
  // Ready agents for the tests that start from one.
  await Promise.all(['mcp-ready', 'mcp-chained'].map(async (name) => {
    const created = await client.callTool({ name: 'create_agent', arguments: { name, ...SPEC, wait: 60 } }, undefined, { timeout: 70_000 });
    expect(JSON.parse((created.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ status: { verdict: 'ready' } });
  }));
});

afterAll(() => served?.close());

const json = (result: CallToolResult) =>
  JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;

describe.concurrent('wait_for_agent over MCP', () => {
  it('sends progress notifications with each verdict change before the result, which is the ready Status', async ({ expect }) => {
    // The controllers wait for the first notification, so the wait sees the rollout under way.
    const resume = served.fixture.sandbox.controllers!.hold({ name: 'mcp-waited' });
    const progress: Progress[] = [];
    let resultArrived = false;
    let result: CallToolResult;
    try {
      const created = await client.callTool({ name: 'create_agent', arguments: { name: 'mcp-waited', ...SPEC } }) as CallToolResult;
      expect(created.isError).toBeFalsy();
      result = await client.callTool(
        { name: 'wait_for_agent', arguments: { name: 'mcp-waited', timeoutSeconds: 60 } },
        undefined,
        { onprogress: (p) => { expect(resultArrived).toBe(false); progress.push(p); resume(); }, timeout: 70_000 },
      ) as CallToolResult;
    } finally {
      resume();
    }
    resultArrived = true;
    expect(result.isError).toBeFalsy();
    const answer = json(result);
    expect(answer).toMatchObject({ name: 'mcp-waited', verdict: 'ready', timedOut: false });
    expect(result.structuredContent).toEqual(answer);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]!.message).not.toBe(answer.summary);
    expect(progress.at(-1)!.message).toBe(answer.summary);
    // progress grows with every notification, as the specification asks.
    expect(progress.every((p, i) => i === 0 || p.progress > progress[i - 1]!.progress)).toBe(true);
  });

  it('answers a call without a progress token with one JSON body, as every other call', async ({ expect }) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait_for_agent', arguments: { name: 'mcp-ready', timeoutSeconds: 5 } } }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json() as { result: CallToolResult };
    expect(JSON.parse((body.result.content[0] as { text: string }).text)).toMatchObject({ verdict: 'ready', timedOut: false });
  });

  it('answers a call with a progress token as an SSE stream ending with the result', async ({ expect }) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({
        jsonrpc: '2.0', id: 2, method: 'tools/call',
        params: { name: 'wait_for_agent', arguments: { name: 'mcp-ready', timeoutSeconds: 5 }, _meta: { progressToken: 'p-1' } },
      }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const messages = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, any>);
    expect(messages[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1, message: 'Agent is Ready; 1/1 pods available' } });
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { structuredContent: { verdict: 'ready', timedOut: false } } });
  });

  it('create_agent with wait answers once the agent is ready, with its Status, timedOut and waitedSeconds, reporting each verdict change as progress', async ({ expect }) => {
    const progress: Progress[] = [];
    const result = await client.callTool({
      name: 'create_agent', arguments: { name: 'mcp-created', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 },
    }, undefined, { timeout: 70_000, onprogress: (p) => progress.push(p) }) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(json(result)).toMatchObject({ created: { helmRelease: true }, timedOut: false, status: { name: 'mcp-created', verdict: 'ready' } });
    expect(progress.at(-1)?.message).toBe((json(result).status as { summary: string }).summary);
  });

  it('chains a write\'s generation into wait_for_agent and its version into the next write', async ({ expect }) => {
    const updated = json(await client.callTool({ name: 'update_agent', arguments: { name: 'mcp-chained', description: 'chained' } }) as CallToolResult);
    const generation = updated.generation as number;
    const version = (updated.agent as { version: string }).version;
    const waited = await client.callTool(
      { name: 'wait_for_agent', arguments: { name: 'mcp-chained', generation, timeoutSeconds: 60 } }, undefined, { timeout: 70_000 },
    ) as CallToolResult;
    expect(json(waited)).toMatchObject({ verdict: 'ready', timedOut: false, generation, observedGeneration: generation });
    // Flux's status writes since the update moved the resourceVersion, not the version.
    const next = await client.callTool({ name: 'update_agent', arguments: { name: 'mcp-chained', description: 'next', version } }) as CallToolResult;
    expect(next.isError).toBeFalsy();
    const stale = await client.callTool({ name: 'update_agent', arguments: { name: 'mcp-chained', description: 'stale', version } }) as CallToolResult;
    expect(stale.isError).toBe(true);
    expect((stale.content[0] as { text: string }).text).toMatch(/^conflict: conflict: agent kagent\/mcp-chained changed since version /);
    const bad = await client.callTool({ name: 'wait_for_agent', arguments: { name: 'mcp-chained', generation: 1.5 } }) as CallToolResult;
    expect((bad.content[0] as { text: string }).text).toBe(
      'invalid_request: invalid request: generation must be a whole number of at least 1 (a write\'s generation), got 1.5');
  });

  it('refuses a timeout outside 1..600 seconds as invalid input, naming the range', async ({ expect }) => {
    const result = await client.callTool({ name: 'wait_for_agent', arguments: { name: 'mcp-ready', timeoutSeconds: 601 } }) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe(
      'invalid_request: invalid request: timeoutSeconds must be a whole number of seconds from 1 to 600, got 601');
  });
});

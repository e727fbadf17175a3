/**
 * Cancelling a wait_for_agent over MCP, end to end: `runServe` against a still sandbox
 * API server (no controllers, read cache off, so the wait's watches are the store's only
 * subscribers) holding an agent whose pod never gets ready. The endpoint is stateless,
 * so a client's `notifications/cancelled` arrives on a POST of its own; it must still
 * stop the call it names: its watches end and no response is sent for the cancelled id
 * (MCP cancellation: stop processing, free resources, send no response), and the call
 * is counted as `cancelled`. A client that disconnects mid-wait leaves no watch open
 * either. Deadlines only; nothing asserts a
 * duration.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgentCr, seedRelease, seedWorkload } from '../support/service/seed-agents.js';
import { eventually } from '../support/eventually.js';
import { deadRegistryFlag, serveConfig, startServe, type RunningServe } from '../support/start-serve.js';

let sandbox: Sandbox;
let serve: RunningServe;
let dir: string;
let url: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: true, authorization: 'rbac', controllers: false });
  seedRelease(sandbox, { name: 'stuck', ready: true, chartVersion: '0.6.1' });
  seedAgentCr(sandbox, { name: 'stuck', release: { name: 'stuck', namespace: 'kagent' }, accepted: true, ready: false });
  seedWorkload(sandbox, { name: 'stuck', available: 0, pods: [{ name: 'stuck-pod', ready: false }] });
  dir = mkdtempSync(join(tmpdir(), 'mcp-cancel-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await sandbox.writeKubeconfig(kubeconfig, { token: sandbox.serviceAccountToken, name: 'agent-manager' });
  serve = await startServe(serveConfig([
    `--kubeconfig=${kubeconfig}`, '--listen=127.0.0.1:0', '--metrics-listen=127.0.0.1:0', '--read-cache=false', await deadRegistryFlag(),
  ]));
  url = `${serve.base}/mcp`;
});

afterAll(async () => {
  await serve?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const watches = () => sandbox.store.objects.hub.subscriberCount;
const noWatchOpen = () => eventually(() => (watches() === 0 ? true : undefined), 5000, 'every watch closed');
const someWatchOpen = () => eventually(() => (watches() > 0 ? true : undefined), 5000, 'the wait watching');

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

function post(body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(body), signal });
}

function waitCall(id: number | string, progressToken?: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0', id, method: 'tools/call',
    params: { name: 'wait_for_agent', arguments: { name: 'stuck', timeoutSeconds: 600 }, ...(progressToken ? { _meta: { progressToken } } : {}) },
  };
}

const cancel = (requestId: number | string) => post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'user pressed stop' } });

/** The JSON-RPC messages of an SSE body, each as it arrives, until the stream ends. */
async function* sseMessages(res: Response): AsyncGenerator<Record<string, any>> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      if (data) yield JSON.parse(data) as Record<string, any>;
    }
  }
}

describe('cancelling wait_for_agent over MCP', () => {
  it('stops a wait streaming progress when its cancellation comes on another POST: the stream ends with no response and no watch stays open', async () => {
    await noWatchOpen();
    const res = await post(waitCall(7, 'w-7'));
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen: Record<string, any>[] = [];
    for await (const message of sseMessages(res)) {
      seen.push(message);
      if (seen.length === 1) {
        expect(message).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'w-7', progress: 1 } });
        expect((await cancel(7)).status).toBe(202);
      }
    }
    // The stream ended after the first progress notification, without an answer for id 7.
    expect(seen).toHaveLength(1);
    await noWatchOpen();
  });

  it('stops a wait answered as plain JSON the same way: an empty event stream instead of a result, and no watch stays open', async () => {
    await noWatchOpen();
    const answer = post(waitCall('plain-1'));
    await someWatchOpen();
    expect((await cancel('plain-1')).status).toBe(202);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toBe('');
    await noWatchOpen();
  });

  it('leaves a wait running on a cancellation naming another id, a number for its string id, or refused for its protocol version', async () => {
    seedRelease(sandbox, { name: 'doomed', ready: true, chartVersion: '0.6.1' });
    seedAgentCr(sandbox, { name: 'doomed', release: { name: 'doomed', namespace: 'kagent' }, accepted: true, ready: true });
    const res = await post({
      jsonrpc: '2.0', id: '1', method: 'tools/call',
      params: { name: 'wait_for_agent', arguments: { name: 'doomed', until: 'deleted', timeoutSeconds: 600 }, _meta: { progressToken: 'd' } },
    });
    const messages = sseMessages(res);
    expect((await messages.next()).value).toMatchObject({ method: 'notifications/progress' });
    expect((await cancel(8)).status).toBe(202);
    expect((await cancel(1)).status).toBe(202);
    const refused = await fetch(url, {
      method: 'POST', headers: { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '1' } }),
    });
    expect(refused.status).toBe(400);
    // Still waiting: once the agent is gone, the call answers.
    sandbox.store.delete('helmreleases', 'kagent', 'doomed');
    sandbox.store.delete('agents', 'kagent', 'doomed');
    const rest: Record<string, any>[] = [];
    for (let next = await messages.next(); !next.done; next = await messages.next()) rest.push(next.value);
    expect(rest.at(-1)).toMatchObject({ id: '1', result: { structuredContent: { timedOut: false } } });
    await noWatchOpen();
  });

  it('stops a wait the SDK client aborts (its AbortSignal sends notifications/cancelled), freeing its watches', async () => {
    await noWatchOpen();
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const stop = new AbortController();
    const call = client.callTool({ name: 'wait_for_agent', arguments: { name: 'stuck', timeoutSeconds: 600 } }, undefined, {
      signal: stop.signal, timeout: 700_000, onprogress: () => stop.abort('user pressed stop'),
    });
    await expect(call).rejects.toThrow(/user pressed stop/);
    await noWatchOpen();
    await client.close();
    // Counted as cancelled, not as a failure of the service (which alerts watch).
    const exposition = await (await fetch(`${serve.metrics}/metrics`)).text();
    expect(exposition).toMatch(/mcp_server_operation_duration_seconds_count\{tool="wait_for_agent",outcome="cancelled"\} [1-9]/);
    expect(exposition).not.toMatch(/mcp_server_operation_duration_seconds_count\{tool="wait_for_agent",outcome="error"\}/);
  });

  it('leaves no watch open when the client of a plain JSON wait disconnects mid-wait', async () => {
    await noWatchOpen();
    const client = new AbortController();
    const answer = post(waitCall(12), client.signal).catch((err: unknown) => err);
    await someWatchOpen();
    client.abort();
    expect(await answer).toBeInstanceOf(Error);
    await noWatchOpen();
  });

  it('leaves no watch open when the client of a streaming wait disconnects mid-wait', async () => {
    await noWatchOpen();
    const client = new AbortController();
    const res = await post(waitCall(11, 'w-11'), client.signal);
    const messages = sseMessages(res);
    expect((await messages.next()).value).toMatchObject({ method: 'notifications/progress' });
    expect(watches()).toBeGreaterThan(0);
    client.abort();
    await noWatchOpen();
  });
});

/**
 * A write answers long free text cut, a read answers it whole: with a system message of 900,000
 * characters (the 0.x schema of kagent sets it no cap), create, update and rollback answer a few
 * kilobytes on MCP and REST alike, the message cut to 4 KiB with the marker and its full length in
 * `agent`, the manifests (whose YAML still reads back) and `before`/`after`, while get_agent returns it whole.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_LIMIT } from '../../src/core/writes/write-echo.js';
import { serveMcp, type ServedMcp } from './served-mcp.js';

let served: ServedMcp;
const LONG = 'Answer in full sentences. '.repeat(34_616).slice(0, 900_000);
const CUT = `${LONG.slice(0, ECHO_LIMIT)}…[cut: 900000 characters in all; get_agent returns it whole]`;
const SPEC = { namespace: 'kagent', modelConfig: 'default-model-config', toolset: ['preset:none'], systemMessage: LONG };

beforeAll(async () => {
  served = await serveMcp('write-echo-test');
});
afterAll(async () => {
  await served?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; json: any }> {
  const result = (await served.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, text.slice(0, 300)).toBeFalsy();
  return { text, json: JSON.parse(text) };
}

/** Every echo of the message in a write answer is the cut one. */
function expectCut(answer: any): void {
  expect(answer.agent.systemMessage).toBe(CUT);
  expect(answer.manifests.values.agent.systemMessage).toBe(CUT);
  const release = parse(answer.manifests.helmRelease);
  expect(release.spec.values.agent.systemMessage).toBe(CUT);
}

describe('write answers echo long free text cut', () => {
  it('create, update and rollback over MCP answer kilobytes; get_agent answers the message whole', async () => {
    const created = await call('create_agent', { ...SPEC, name: 'long-prompt' });
    expect(created.text.length).toBeLessThan(40_000);
    expectCut(created.json);

    const updated = await call('update_agent', { name: 'long-prompt', description: 'second' });
    expect(updated.text.length).toBeLessThan(40_000);
    expectCut(updated.json);
    expect(updated.json.before.agent.systemMessage).toBe(CUT);
    expect(updated.json.after.agent.systemMessage).toBe(CUT);

    const rolledBack = await call('rollback_agent', { name: 'long-prompt', revision: 1 });
    expect(rolledBack.text.length).toBeLessThan(40_000);
    expect(rolledBack.json.agent.systemMessage).toBe(CUT);

    const read = await call('get_agent', { name: 'long-prompt' });
    expect(read.json.systemMessage).toBe(LONG);
  });

  it('answers a REST create cut the same way, and its GET whole', async () => {
    const api = served.url.replace(/\/mcp$/, '/api/v1');
    const res = await fetch(`${api}/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...SPEC, name: 'long-rest' }),
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(201);
    expect(text.length).toBeLessThan(40_000);
    expectCut(JSON.parse(text));
    const read = (await (await fetch(`${api}/agents/kagent/long-rest`)).json()) as { systemMessage: string };
    expect(read.systemMessage).toBe(LONG);
  });
});

/**
 * The MCP Inspector's CLI against our running MCP endpoint: a client we did not write
 * (the reference one, on the SDK's v2 line) lists and calls our tools over streamable
 * HTTP, against the real service on a seeded sandbox. It is fetched with npx, pinned, and not a
 * dependency of the project: when npm cannot be reached the test is skipped and says so.
 * The Inspector declares Node >=22; it runs on the Node 24 the npm scripts put first on
 * the PATH.
 */
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { createApp } from '../../src/transport/http/app.js';
import { startServiceFixture, type ServiceFixture } from '../../src/service/testing/fixture.js';
import { OPERATIONS } from '../../src/transport/operations.js';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|E404|network request|could not determine executable/i;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function inspector(url: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['--yes', INSPECTOR, '--cli', url, '--transport', 'http', ...args],
      { timeout: 240_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

const LIST = ['--method', 'tools/list'];
const CALL = ['--method', 'tools/call', '--tool-name', 'get_info'];
const MISTYPED = ['--method', 'tools/call', '--tool-name', 'get_agent', '--tool-arg', 'nmae=sre'];

describe('the MCP Inspector CLI against /mcp', () => {
  let fixture: ServiceFixture;
  let server: Server;
  let url: string;
  // The three runs only read, so they start together once the server listens; each test
  // awaits its own (npx and the Inspector's start-up are most of every run's time).
  const runs = new Map<string[], Promise<Run>>();

  beforeAll(async () => {
    fixture = await startServiceFixture();
    const app = createApp({ service: fixture.service, log: silentLogger(), version: '0.0.0-test' });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    for (const args of [LIST, CALL, MISTYPED]) runs.set(args, inspector(url, args));
  });

  afterAll(async () => {
    await Promise.all(runs.values());
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await fixture?.close();
  });

  async function run(ctx: { skip: (note?: string) => void }, args: string[], exitCode = 0): Promise<Run> {
    const result = await runs.get(args)!;
    // Only npm's own fetch failures mean "offline"; the Inspector failing to reach us is a failure.
    if (result.code !== 0 && /^npm (error|ERR!)/m.test(result.stderr) && OFFLINE.test(result.stderr)) {
      ctx.skip(`${INSPECTOR} could not be fetched with npx (npm registry unreachable): ${result.stderr.trim().split('\n').at(-1)}`);
    }
    expect(result.code, result.stderr).toBe(exitCode);
    return result;
  }

  it('lists the ten tools with their annotations', { timeout: 300_000 }, async (ctx) => {
    const { tools } = JSON.parse((await run(ctx, LIST)).stdout) as {
      tools: Array<{ name: string; description: string; annotations: Record<string, unknown> }>;
    };
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((o) => o.tool));
    for (const tool of tools) {
      const operation = OPERATIONS.find((o) => o.tool === tool.name)!;
      expect(tool.annotations).toEqual({ title: operation.title, ...operation.annotations });
      expect(tool.description).toMatch(/^(Read-only|WRITES)/);
    }
  });

  it('calls a tool and reads the JSON text and the structured content', { timeout: 300_000 }, async (ctx) => {
    const result = JSON.parse((await run(ctx, CALL)).stdout) as {
      content: Array<{ type: string; text: string }>;
      structuredContent: { identity: string };
      isError?: boolean;
    };
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]!.text).toContain('"identity": "serviceAccount"');
    expect(result.structuredContent.identity).toBe('serviceAccount');
  });

  it('gets a tool error as a result the caller can read (and exits 5)', { timeout: 300_000 }, async (ctx) => {
    const result = await run(ctx, MISTYPED, 5);
    const body = JSON.parse(result.stdout) as { content: Array<{ text: string }>; isError: boolean };
    expect(body.isError).toBe(true);
    expect(body.content[0]!.text).toBe('invalid_request: invalid request: unknown field "nmae" (get_agent takes: name, namespace); name is required');
    // The CLI exits 5 on an isError result and says why on stderr.
    expect(result.stderr).toContain('tool_is_error');
  });
});

/**
 * The MCP Inspector's CLI against our running MCP endpoint: a client we did not write
 * (the reference one, on the SDK's v2 line) lists and calls our tools over streamable
 * HTTP, against the real service on a seeded sandbox. It is not a dependency of the
 * project: scripts/test-setup.mjs installs it, pinned, into the user cache (linked into .cache/test-tools) before the
 * suite runs, and the suite skips (failing in CI) where it is absent. It declares Node >=22
 * and runs on the Node 24 the npm scripts put first on the PATH.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { createApp } from '../../src/app.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { OPERATIONS } from '../../src/transport/operations.js';
import { testTool, toolTestMode } from '../support/test-tools.js';

const inspectorMode = toolTestMode(['mcp-inspector'], 'the pinned @modelcontextprotocol/inspector');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function inspector(url: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      testTool('mcp-inspector') ?? 'mcp-inspector',
      ['--cli', url, '--transport', 'http', ...args],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

const LIST = ['--method', 'tools/list'];
const CALL = ['--method', 'tools/call', '--tool-name', 'get_info'];
const MISTYPED = ['--method', 'tools/call', '--tool-name', 'get_agent', '--tool-arg', 'nmae=sre'];

describe.skipIf(inspectorMode.mode === 'skip')(`the MCP Inspector CLI against /mcp${inspectorMode.mode === 'skip' ? ` — SKIPPED: ${inspectorMode.reason}` : ''}`, () => {
  let fixture: ServiceFixture;
  let server: Server;
  let url: string;
  // The three runs only read, so they start together once the server listens; each test
  // awaits its own (the Inspector's start-up is most of every run's time).
  const runs = new Map<string[], Promise<Run>>();

  beforeAll(async () => {
    fixture = await startServiceFixture();
    const app = createApp({ service: fixture.service, log: silentLogger(), version: '0.0.0-test' });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
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

  async function run(args: string[], exitCode = 0): Promise<Run> {
    if (inspectorMode.mode === 'fail') throw new Error(inspectorMode.reason);
    const result = await runs.get(args)!;
    expect(result.code, result.stderr).toBe(exitCode);
    return result;
  }

  it('lists every tool of the operations table with its annotations', { timeout: 90_000 }, async () => {
    const { tools } = JSON.parse((await run(LIST)).stdout) as {
      tools: Array<{ name: string; description: string; annotations: Record<string, unknown> }>;
    };
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((o) => o.tool));
    for (const tool of tools) {
      const operation = OPERATIONS.find((o) => o.tool === tool.name)!;
      expect(tool.annotations).toEqual({ title: operation.title, ...operation.annotations });
      expect(tool.description).toMatch(/^(Read-only|WRITES)/);
    }
  });

  it('calls a tool and reads the JSON text and the structured content', { timeout: 90_000 }, async () => {
    const result = JSON.parse((await run(CALL)).stdout) as {
      content: Array<{ type: string; text: string }>;
      structuredContent: { identity: string };
      isError?: boolean;
    };
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]!.text).toContain('"identity": "serviceAccount"');
    expect(result.structuredContent.identity).toBe('serviceAccount');
  });

  it('gets a tool error as a result the caller can read (and exits 5)', { timeout: 90_000 }, async () => {
    const result = await run(MISTYPED, 5);
    const body = JSON.parse(result.stdout) as { content: Array<{ text: string }>; isError: boolean };
    expect(body.isError).toBe(true);
    expect(body.content[0]!.text).toBe('invalid_request: invalid request: unknown field "nmae" (get_agent takes: name, namespace, organization, cluster); name is required');
    // The CLI exits 5 on an isError result and says why on stderr.
    expect(result.stderr).toContain('tool_is_error');
  });
});

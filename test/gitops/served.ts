/**
 * A commit world behind the real HTTP app on loopback, for the suites that drive commit
 * mode through the transports: `mcp` calls one tool on a fresh MCP session carrying the
 * given headers (X-GitHub-Token travels on the MCP request), `rest` sends one request.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger, type Logger } from '../../src/log/logger.js';
import { createApp } from '../../src/app.js';
import { startCommitWorld, type CommitWorld, type HostChoice } from './support.js';
import { serveApp } from '../support/transport/serve-app.js';

export interface Served {
  w: CommitWorld;
  base: string;
  mcp(
    tool: string, args: Record<string, unknown>, headers?: Record<string, string>,
  ): Promise<{ isError: boolean; text: string; json?: any }>;
  rest(
    method: string, path: string, body?: unknown, headers?: Record<string, string>,
  ): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

export async function serveCommitWorld(
  choice: HostChoice, seed: (w: CommitWorld) => void = () => undefined, log: Logger = silentLogger(),
): Promise<Served> {
  const w = await startCommitWorld(choice);
  seed(w);
  const app = createApp({ service: w.f.service, log, version: 'test' });
  const server = await serveApp(app);
  const base = server.url;
  return {
    w, base,
    async mcp(tool, args, headers = {}) {
      const client = new Client({ name: 'commit-mode-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
      try {
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        const text = (result.content[0] as { text: string }).text;
        return { isError: Boolean(result.isError), text, json: result.isError ? undefined : JSON.parse(text) };
      } finally {
        await client.close();
      }
    },
    async rest(method, path, body, headers = {}) {
      const res = await fetch(`${base}/api/v1${path}`, {
        method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() as any };
    },
    async close() {
      await server.close();
      await w.close();
    },
  };
}

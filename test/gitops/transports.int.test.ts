/**
 * Commit mode through both transports of the real HTTP app: MCP tools with the caller's
 * X-GitHub-Token on the MCP request, REST with body fields, query parameters and the
 * header; what was pushed is read back with git.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITER_TOKEN } from '../support/github/commit-world.js';
import { serveCommitWorld, type Served } from './served.js';
import type { CommitWorld } from './support.js';

let served: Served;
let w: CommitWorld;
let base: string;

beforeAll(async () => {
  served = await serveCommitWorld('app');
  ({ w, base } = served);
});
afterAll(() => served?.close());

async function mcp(headers: Record<string, string>) {
  const client = new Client({ name: 'commit-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return {
    async call(name: string, args: Record<string, unknown>) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = (result.content[0] as { text: string }).text;
      return { isError: Boolean(result.isError), text, json: result.isError ? undefined : JSON.parse(text) };
    },
    close: () => client.close(),
  };
}

async function rest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() as any };
}

describe('commit mode over MCP and REST', () => {
  it('update_agent over MCP opens the pull request as the person whose X-GitHub-Token the request carries', async () => {
    const client = await mcp({ 'X-GitHub-Token': WRITER_TOKEN });
    try {
      const { isError, json } = await client.call('update_agent', { name: 'sre', toolset: ['preset:none'], mode: 'commit' });
      expect(isError).toBe(false);
      expect(json.mode).toBe('commit');
      const pull = w.world.github.pulls('acme/fleet').find((p) => p.head === json.commit.branch)!;
      expect(pull.user).toBe('alice');
      expect(await w.world.repo.show(json.commit.branch, 'clusters/prod/agents.yaml')).toContain('      - preset:none # read-only to start with\n');
      expect(JSON.stringify(json)).not.toContain(WRITER_TOKEN);
    } finally {
      await client.close();
    }
  });

  it('create_agent over MCP without a repository is the 400 that says what to pass', async () => {
    const client = await mcp({});
    try {
      const { isError, text } = await client.call('create_agent', { name: 'x1', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit' });
      expect(isError).toBe(true);
      expect(text).toBe('invalid_request: invalid request: commit mode needs a GitOps repository: pass repository (owner/name), branch and path, or configure --gitops-repository');
    } finally {
      await client.close();
    }
  });

  it('REST create in commit mode answers 200 (nothing was created on the cluster) with the layout', async () => {
    const { status, json } = await rest('POST', '/agents', {
      name: 'scribe', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit', repository: 'acme/fleet', path: 'clusters/new',
    });
    expect(status).toBe(200);
    expect(json.commit.files.map((f: any) => f.path)).toContain('clusters/new/agent-manager/scribe.yaml');
    expect(await w.world.repo.show(json.commit.branch, 'clusters/new/agent-manager/scribe.yaml')).toContain('name: scribe');
  });

  it('REST delete takes mode and dryRun as query parameters and writes nothing', async () => {
    const branches = await w.world.repo.branches();
    const { status, json } = await rest('DELETE', '/agents/kagent/ops?mode=commit&dryRun=true', undefined, { 'X-GitHub-Token': WRITER_TOKEN });
    expect(status).toBe(200);
    expect(json.commit.files.map((f: any) => f.action)).toEqual(['update', 'remove']);
    expect(json.commit.files[0].content).toContain('resources: []');
    expect(json.commit.liveSteps).toHaveLength(1);
    expect(await w.world.repo.branches()).toEqual(branches);
  });

  it('REST refuses the commit-only options in apply mode instead of writing to the cluster', async () => {
    const { status, json } = await rest('PATCH', '/agents/kagent/ops?repository=acme/fleet&force=true', { toolset: ['preset:none'] });
    expect(status).toBe(400);
    expect(json.error.message).toBe('invalid request: repository applies only with mode "commit"; pass mode "commit" to open a pull request');
  });

  it('REST create in commit mode with dryRun answers 200 with dryRun and the files, and pushes nothing', async () => {
    const branches = await w.world.repo.branches();
    const { status, json } = await rest('POST', '/agents?dryRun=true', {
      name: 'planner', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit', repository: 'acme/fleet', path: 'clusters/new',
    });
    expect(status).toBe(200);
    expect(json.dryRun).toBe(true);
    expect(json.commit.files.find((f: any) => f.path === 'clusters/new/agent-manager/planner.yaml').content).toContain('name: planner');
    expect(await w.world.repo.branches()).toEqual(branches);
  });

  it('commit mode honours a resourceVersion precondition: a stale one is refused before anything reaches GitHub', async () => {
    const calls = w.world.github.calls.length;
    const { status, json } = await rest('PATCH', '/agents/kagent/sre?mode=commit', { toolset: ['preset:none'] }, { 'If-Match': '"1"' });
    expect(status).toBe(412);
    expect(json.error.code).toBe('conflict');
    expect(w.world.github.calls.length).toBe(calls);
  });

  it('REST answers an unknown mode with a 400', async () => {
    const { status } = await rest('PATCH', '/agents/kagent/sre?mode=push', { toolset: ['preset:none'] });
    expect(status).toBe(400);
  });
});

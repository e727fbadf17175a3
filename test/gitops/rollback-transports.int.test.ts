/**
 * rollback_agent in commit mode through both transports of the real HTTP app: MCP with the
 * caller's X-GitHub-Token on the MCP request, REST with the body field, the query
 * parameters and the header; and the 501 naming the flags when commit mode is not
 * configured. What was pushed is read back with git.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SRE_VALUES, WRITER_TOKEN } from '../support/github/commit-world.js';
import { NIGHT_SHIFT, seedRevision, storedRevisions } from './seed-revisions.js';
import { serveCommitWorld, type Served } from './served.js';
import type { HostChoice } from './support.js';

const serve = (choice: HostChoice) => serveCommitWorld(choice, (w) => {
  seedRevision(w.f.sandbox, 1, NIGHT_SHIFT);
  seedRevision(w.f.sandbox, 2, SRE_VALUES);
});

let s: Served;
beforeAll(async () => {
  s = await serve('app');
});
afterAll(() => s?.close());

const rest = (on: Served, path: string, body: unknown, headers: Record<string, string> = {}) => on.rest('POST', path, body, headers);
const mcpCall = (headers: Record<string, string>, name: string, args: Record<string, unknown>) =>
  s.mcp(name, args, headers);

describe('rollback_agent in commit mode over MCP and REST', () => {
  it('MCP rollback_agent with mode commit opens the pull request as the person whose X-GitHub-Token the request carries', async () => {
    const { isError, json } = await mcpCall({ 'X-GitHub-Token': WRITER_TOKEN }, 'rollback_agent', { name: 'sre', revision: 1, mode: 'commit' });
    expect(isError).toBe(false);
    expect(json).toMatchObject({ mode: 'commit', rolledBackTo: 1, changed: ['agent.displayName', 'toolset'] });
    expect(json).not.toHaveProperty('revision');
    const pull = s.w.world.github.pulls('acme/fleet').find((p) => p.head === json.commit.branch)!;
    expect(pull).toMatchObject({ user: 'alice', title: 'chore(agents): roll back agent sre in kagent to revision 1' });
    expect(await s.w.world.repo.show(json.commit.branch, 'clusters/prod/agents.yaml')).toContain("displayName: 'Night shift'");
    expect(JSON.stringify(json)).not.toContain(WRITER_TOKEN);
    expect(storedRevisions(s.w.f.sandbox)).toEqual(['sre-1', 'sre-2']);
  });

  it('MCP lists mode, repository, branch and path among rollback_agent\'s arguments', async () => {
    const client = new Client({ name: 'rollback-commit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`)));
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'rollback_agent')!;
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['mode', 'repository', 'branch', 'path']));
      expect(tool.description).toContain('With mode "commit" nothing is written to the cluster');
    } finally {
      await client.close();
    }
  });

  it('REST takes mode in the body and answers 200 with the commit', async () => {
    const { status, json } = await rest(s, '/agents/kagent/sre/rollback', { revision: 1, mode: 'commit' });
    expect(status).toBe(200);
    expect(json.commit.branch).toMatch(/^agent-manager\/rollback-kagent-sre-[0-9a-f]{8}$/);
    expect(json.commit.pullRequest).toMatch(/\/pull\/\d+$/);
    expect(await s.w.world.repo.git(['log', '-1', '--format=%s', json.commit.branch])).toBe('chore(agents): roll back agent sre in kagent to revision 1\n');
  });

  it('REST takes mode and dryRun as query parameters and pushes nothing', async () => {
    const branches = await s.w.world.repo.branches();
    const { status, json } = await rest(s, '/agents/kagent/sre/rollback?mode=commit&dryRun=true', { revision: 1 });
    expect(status).toBe(200);
    expect(json.dryRun).toBe(true);
    expect(json.commit.files[0]).toMatchObject({ path: 'clusters/prod/agents.yaml', action: 'update' });
    expect(json.commit.files[0].content).toContain("displayName: 'Night shift'");
    expect(await s.w.world.repo.branches()).toEqual(branches);
  });

  it('REST checks If-Match before anything reaches GitHub, and refuses a revision the agent does not have', async () => {
    const calls = s.w.world.github.calls.length;
    const stale = await rest(s, '/agents/kagent/sre/rollback?mode=commit', { revision: 1 }, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);
    const missing = await rest(s, '/agents/kagent/sre/rollback', { revision: 7, mode: 'commit' });
    expect(missing.status).toBe(404);
    expect(s.w.world.github.calls.length).toBe(calls);
  });

  it('REST answers 501 naming the flags when commit mode is not configured, and rolls back nothing', async () => {
    const off = await serve('absent');
    try {
      const { status, json } = await rest(off, '/agents/kagent/sre/rollback', { revision: 1, mode: 'commit' });
      expect(status).toBe(501);
      expect(json.error).toEqual({
        code: 'unsupported',
        message: 'unsupported: commit mode is not configured: set --github-app-id with --github-app-private-key-file, or --gitops-github-token (GITOPS_GITHUB_TOKEN), or send the caller\'s GitHub token in X-GitHub-Token',
      });
      expect(storedRevisions(off.w.f.sandbox)).toEqual(['sre-1', 'sre-2']);
    } finally {
      await off.close();
    }
  });
});

/**
 * Skill pinning over both transports of the production app, with a real MCP client and
 * plain HTTP against the GitHub double: create pins, refreshSkills on update_agent,
 * validate_agent and rollback_agent (MCP argument and REST body), and GitHub being down
 * answered as 502 backend_error on REST and `backend_error:` on MCP, with nothing written.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILL_REFS_ANNOTATION } from '../../src/core/skills/skill-pins.js';
import { openSkillResolver } from '../../src/skills/skill-resolver.js';
import { doubleCommit, startGitHubDouble, type GitHubDouble } from '../support/github/skills-github-double.js';
import { serveMcp, type ServedMcp } from './served-mcp.js';

const REPO = 'https://github.com/giantswarm/agent-skills';
const MAIN = doubleCommit('giantswarm/agent-skills', 'main');
const MOVED = 'c'.repeat(40);
const BASE = { modelConfig: 'default-model-config', toolset: ['preset:read-only'] };

let github: GitHubDouble;
let served: ServedMcp;
let api: string;

beforeAll(async () => {
  github = await startGitHubDouble({ repositories: { 'giantswarm/agent-skills': { defaultBranch: 'main', refs: { main: { files: {} } } } } });
  served = await serveMcp('skill-pins-test', { skillResolver: openSkillResolver({ github: { apiUrl: github.url, retryBaseMs: 1 }, registry: {} }) });
  api = served.url.replace(/\/mcp$/, '/api/v1');
});
afterAll(async () => {
  await served?.close();
  await github?.close();
});

async function tool(
  name: string, args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string; json?: Record<string, unknown> }> {
  const result = (await served.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  return result.isError
    ? { isError: true, text }
    : { isError: false, text, json: JSON.parse(text) as Record<string, unknown> };
}

const rest = (method: string, path: string, body?: unknown) =>
  fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
type StoredRelease = {
  metadata: { annotations?: Record<string, string> }; spec: { values: { skills: { gitRefs: Array<{ ref: string }> } } };
};
const stored = (name: string) =>
  served.fixture.sandbox.store.find('helmreleases', 'kagent', name) as StoredRelease | undefined;

describe('skill pins over MCP and REST', () => {
  it('create_agent pins the branch, and get_agent shows the ref beside the commit', async () => {
    const created = await tool('create_agent', { ...BASE, name: 'mcp-pinned', skills: { gitRefs: [{ url: REPO, ref: 'main' }] } });
    expect(created.isError).toBe(false);
    expect(stored('mcp-pinned')!.spec.values.skills.gitRefs[0]!.ref).toBe(MAIN);
    expect(JSON.parse(stored('mcp-pinned')!.metadata.annotations![SKILL_REFS_ANNOTATION]!)).toEqual({ gitRefs: [{ name: 'agent-skills', url: REPO, ref: 'main', commit: MAIN }] });
    const read = await tool('get_agent', { name: 'mcp-pinned' });
    expect(read.json!.skills).toEqual({ gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'main', commit: MAIN }] });
  });

  it('takes refreshSkills on validate_agent and update_agent (MCP) and on the PATCH query and rollback (REST)', async () => {
    github.moveRef('giantswarm/agent-skills', 'main', MOVED);
    try {
      const kept = await tool('update_agent', { name: 'mcp-pinned', description: 'x' });
      expect(kept.json!.changed).toEqual(['agent.description']);
      const checked = await tool('validate_agent', { name: 'mcp-pinned', update: true, refreshSkills: true });
      expect(checked.json).toMatchObject({ valid: true, skills: { gitRefs: [{ ref: 'main', commit: MOVED }] } });
      expect(stored('mcp-pinned')!.spec.values.skills.gitRefs[0]!.ref).toBe(MAIN);
      const moved = await tool('update_agent', { name: 'mcp-pinned', refreshSkills: true });
      expect(moved.json!.changed).toEqual(['skills.gitRefs']);
      expect(stored('mcp-pinned')!.spec.values.skills.gitRefs[0]!.ref).toBe(MOVED);

      const back = await rest('POST', '/agents/kagent/mcp-pinned/rollback', { revision: 1 });
      expect(back.status).toBe(200);
      expect(stored('mcp-pinned')!.spec.values.skills.gitRefs[0]!.ref).toBe(MAIN);
      const patched = await rest('PATCH', '/agents/kagent/mcp-pinned?refreshSkills=true', {});
      expect(patched.status).toBe(200);
      expect(((await patched.json()) as { agent: { skills: unknown } }).agent.skills).toEqual({ gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'main', commit: MOVED }] });
    } finally {
      github.moveRef('giantswarm/agent-skills', 'main', MAIN);
    }
  });

  it('refuses a refreshSkills that is not a boolean on both transports', async () => {
    expect((await tool('update_agent', { name: 'mcp-pinned', refreshSkills: 'yes' })).isError).toBe(true);
    expect((await rest('PATCH', '/agents/kagent/mcp-pinned', { refreshSkills: 'yes' })).status).toBe(400);
    expect((await rest('PATCH', '/agents/kagent/mcp-pinned?refreshSkills=maybe', {})).status).toBe(400);
  });
});

describe('GitHub unreachable', () => {
  let down: ServedMcp;
  let downApi: string;

  beforeAll(async () => {
    const gone = await startGitHubDouble({ repositories: {} });
    const url = gone.url;
    await gone.close();
    down = await serveMcp('skill-pins-down', { skillResolver: openSkillResolver({ github: { apiUrl: url, retryBaseMs: 1 }, registry: {} }) });
    downApi = down.url.replace(/\/mcp$/, '/api/v1');
  });
  afterAll(() => down?.close());

  it('answers 502 backend_error on REST and backend_error on MCP, and writes nothing', async () => {
    const res = await fetch(`${downApi}/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...BASE, name: 'offline', skills: { gitRefs: [{ url: REPO, ref: 'main' }] } }),
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'backend_error', message: expect.stringMatching(/^skills\.gitRefs\[0\]: resolving ref main of https:\/\/github\.com\/giantswarm\/agent-skills: /),
    });
    const result = (await down.client.callTool({ name: 'create_agent', arguments: { ...BASE, name: 'offline', skills: { gitRefs: [{ url: REPO }] } } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^backend_error: skills\.gitRefs\[0\]: resolving the default branch of /);
    expect(down.fixture.sandbox.store.find('helmreleases', 'kagent', 'offline')).toBeUndefined();
  });
});

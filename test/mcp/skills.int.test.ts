/**
 * list_skills through MCP with repositories configured (the loopback GitHub double), and
 * the portal's path from a listed skill to an agent: the skill's repository and path go
 * into create_agent as a gitRef, and the release carries it with the derived name.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillsResult } from '../../src/core/types.js';
import { silentLogger } from '../../src/log/logger.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { GitHubSkillCatalog } from '../../src/skills/github-skill-catalog.js';
import { sampleRepositories, startGitHubDouble, type GitHubDouble } from '../support/github/skills-github-double.js';
import { createApp } from '../../src/app.js';
import { serveApp, type ServedApp } from '../support/transport/serve-app.js';

let github: GitHubDouble;
let fixture: ServiceFixture;
let server: ServedApp | undefined;
let client: Client;

beforeAll(async () => {
  github = await startGitHubDouble({ repositories: sampleRepositories() });
  const skills = new GitHubSkillCatalog({
    repositories: ['https://github.com/giantswarm/agent-skills.git', 'https://github.com/giantswarm/private-skills'],
    apiUrl: github.url,
    retryBaseMs: 1,
  });
  fixture = await startServiceFixture({ skills });
  const app = createApp({ service: fixture.service, log: silentLogger(), version: 'test' });
  server = await serveApp(app);
  client = new Client({ name: 'skills-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await fixture?.close();
  await github?.close();
});

async function call(
  name: string, args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string; json?: unknown }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  return result.isError ? { isError: true, text } : { isError: false, text, json: JSON.parse(text) };
}

describe('list_skills over MCP', () => {
  it('lists the skills of every configured repository, canonical URLs, sorted by path, an unreadable one reported in place', async () => {
    const { isError, json } = await call('list_skills', {});
    expect(isError).toBe(false);
    const result = json as SkillsResult;
    expect(result.repositories.map((r) => r.repoUrl)).toEqual([
      'https://github.com/giantswarm/agent-skills', 'https://github.com/giantswarm/private-skills',
    ]);
    const [open, hidden] = result.repositories;
    expect(open!.skills.map((s) => [s.path, s.name])).toEqual([
      ['agent-self-awareness', 'self-awareness'], ['nested/runbooks', 'runbooks'], ['noname', 'noname'],
    ]);
    expect(hidden!.skills).toEqual([]);
    expect(hidden!.error).toMatch(/GitHub API .* returned 404/);
    expect(result.skills.map((s) => s.name)).toEqual(['self-awareness', 'runbooks', 'noname']);
  });

  it('refuses a repository that is not on GitHub with invalid_request', async () => {
    const { isError, text } = await call('list_skills', { repository: 'https://gitlab.com/o/r' });
    expect(isError).toBe(true);
    expect(text).toMatch(/^invalid_request: invalid request: repository "https:\/\/gitlab\.com\/o\/r" is not a GitHub repository URL/);
  });

  it('turns a listed skill into an agent: create_agent stores the gitRef with the name derived from its path', async () => {
    const { json } = await call('list_skills', { repository: 'https://github.com/giantswarm/agent-skills' });
    const skill = (json as SkillsResult).skills.find((s) => s.name === 'runbooks')!;
    const created = await call('create_agent', {
      name: 'runbook-agent', modelConfig: 'default-model-config', toolset: ['preset:read-only'],
      skills: { gitRefs: [{ url: skill.repoUrl, path: skill.path, ref: skill.ref }] },
    });
    expect(created.isError).toBe(false);
    const release = fixture.sandbox.store.get('helmreleases', 'kagent', 'runbook-agent') as { spec: { values: { skills: unknown } } };
    expect(release.spec.values.skills).toEqual({
      gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', path: 'nested/runbooks', ref: 'main', name: 'runbooks' }],
    });
  });
});

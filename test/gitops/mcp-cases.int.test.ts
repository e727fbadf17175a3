/**
 * The commit-mode cases through MCP, as the muster gateway calls the tools: an edit in place
 * keeping comments, a new agent in the layout, a delete with and without prune, a release
 * defined twice, a base branch that moved between read and write, a dry run, and the
 * refusals (501 unsupported without a credential, 401 and 403 for a GitHub token that
 * GitHub refuses or that may not write); and the caller's token (X-GitHub-Token) in no log
 * line, commit or pull request. Every claim about what was pushed is read back with git.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROD_AGENTS, READER_TOKEN, SEED_FILES, WRITER_TOKEN } from '../support/github/commit-world.js';
import { createLogger } from '../../src/log/logger.js';
import { serveCommitWorld, type Served } from './served.js';

let s: Served;
beforeAll(async () => {
  s = await serveCommitWorld('app');
});
afterAll(() => s?.close());

const NEW_AGENT = { modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit', repository: 'acme/fleet', path: 'clusters/new' };
const actions = (files: Array<{ path: string; action: string }>) => files.map((f) => `${f.action} ${f.path}`);

describe('commit mode through MCP', () => {
  it('update_agent edits the release in place, keeping comments and the rest of the file', async () => {
    const { isError, json } = await s.mcp('update_agent', { name: 'sre', toolset: ['preset:kubernetes-read', 'server:prometheus'], mode: 'commit' });
    expect(isError).toBe(false);
    expect(actions(json.commit.files)).toEqual(['update clusters/prod/agents.yaml']);
    expect(await s.w.world.repo.show(json.commit.branch, 'clusters/prod/agents.yaml'))
      .toBe(PROD_AGENTS.replace('      - preset:kubernetes-read # read-only to start with\n', '      - preset:kubernetes-read # read-only to start with\n      - server:prometheus\n'));
  });

  it('create_agent lays a new agent out under <path>/agent-manager/', async () => {
    const { json } = await s.mcp('create_agent', { name: 'courier', ...NEW_AGENT });
    expect(actions(json.commit.files)).toEqual([
      'add clusters/new/agent-manager/agent.yaml', 'add clusters/new/agent-manager/courier.yaml',
      'add clusters/new/agent-manager/kustomization.yaml', 'update clusters/new/kustomization.yaml',
    ]);
    expect(await s.w.world.repo.git(['log', '-1', '--format=%s', json.commit.branch])).toBe('feat(agents): add agent courier in kagent\n');
  });

  it('delete_agent with prune removes the document and has nothing to do by hand', async () => {
    const { json } = await s.mcp('delete_agent', { name: 'sre', mode: 'commit' });
    expect(json).toMatchObject({ mode: 'commit', helmReleaseDeleted: false });
    expect(actions(json.commit.files)).toEqual(['update clusters/prod/agents.yaml']);
    expect(json.commit.liveSteps).toBeUndefined();
    expect(await s.w.world.repo.show(json.commit.branch, 'clusters/prod/agents.yaml')).not.toContain('name: sre');
  });

  it('delete_agent without prune removes the file and its entry, and liveSteps says what to delete by hand', async () => {
    const { json } = await s.mcp('delete_agent', { name: 'ops', mode: 'commit' });
    expect(actions(json.commit.files)).toEqual(['update clusters/staging/kustomization.yaml', 'remove clusters/staging/ops.yaml']);
    expect(json.commit.liveSteps).toEqual(['kubectl delete helmreleases.helm.toolkit.fluxcd.io ops -n kagent']);
    expect(await s.w.world.repo.show(json.commit.branch, 'clusters/staging/ops.yaml')).toBeUndefined();
  });

  it('a release defined twice is a conflict naming both files, and no branch is pushed', async () => {
    const branches = await s.w.world.repo.branches();
    const { isError, text } = await s.mcp('update_agent', { name: 'twin', toolset: ['preset:none'], mode: 'commit' });
    expect(isError).toBe(true);
    expect(text).toBe('conflict: conflict: HelmRelease kagent/twin is defined more than once in acme/fleet@main: clusters/dup/a.yaml and clusters/dup/old/b.yaml; keep one definition, then retry');
    expect(await s.w.world.repo.branches()).toEqual(branches);
  });

  it('a base branch that moved between read and write is planned again on the new head', async () => {
    let moved = '';
    s.w.world.github.before('POST', '/repos/acme/fleet/git/trees', async () => {
      moved = await s.w.world.repo.commitFiles('main', { 'clusters/prod/apps.yaml': `${SEED_FILES['clusters/prod/apps.yaml']}# moved\n` }, 'someone else');
    });
    const { json } = await s.mcp('update_agent', { name: 'sre', displayName: 'Pager', mode: 'commit' });
    expect((await s.w.world.repo.git(['rev-parse', `${json.commit.branch}^`])).trim()).toBe(moved);
    expect(await s.w.world.repo.show(json.commit.branch, 'clusters/prod/apps.yaml')).toContain('# moved');
  });

  it('dryRun pushes nothing and returns each file with its content', async () => {
    const branches = await s.w.world.repo.branches();
    const { json } = await s.mcp('create_agent', { name: 'drafter', ...NEW_AGENT, dryRun: true });
    expect(json.dryRun).toBe(true);
    expect(json.commit.pullRequest).toBeUndefined();
    expect(json.commit.files.find((f: any) => f.path === 'clusters/new/agent-manager/drafter.yaml').content).toContain('name: drafter');
    expect(await s.w.world.repo.branches()).toEqual(branches);
  });

  it('answers unauthenticated for a GitHub token GitHub refuses and forbidden for one that may not write', async () => {
    const wrong = await s.mcp('update_agent', { name: 'sre', toolset: ['preset:none'], mode: 'commit' }, { 'X-GitHub-Token': 'ghp_wrong' });
    expect(wrong).toMatchObject({ isError: true, text: 'unauthenticated: unauthenticated: GitHub refused the caller\'s GitHub token (X-GitHub-Token): Bad credentials' });
    const reader = await s.mcp('update_agent', { name: 'sre', toolset: ['preset:none'], mode: 'commit' }, { 'X-GitHub-Token': READER_TOKEN });
    expect(reader.isError).toBe(true);
    expect(reader.text).toBe('forbidden: forbidden: the caller\'s GitHub token (X-GitHub-Token) may not write the tree in acme/fleet: Resource not accessible by personal access token');
    expect(JSON.stringify([wrong, reader])).not.toContain(READER_TOKEN);
  });

  it('answers unsupported naming the flags when commit mode is not configured, and works with the caller\'s token alone', async () => {
    const off = await serveCommitWorld('none');
    try {
      const refused = await off.mcp('update_agent', { name: 'sre', toolset: ['preset:none'], mode: 'commit' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toBe('unsupported: unsupported: commit mode is not configured: set --github-app-id with --github-app-private-key-file, or --gitops-github-token (GITOPS_GITHUB_TOKEN), or send the caller\'s GitHub token in X-GitHub-Token');
      expect((await off.mcp('get_info', {})).json.capabilities.commit).toBe(false);
      const asCaller = await off.mcp('update_agent', { name: 'sre', toolset: ['preset:none'], mode: 'commit' }, { 'X-GitHub-Token': WRITER_TOKEN });
      expect(off.w.world.github.pulls('acme/fleet').find((p) => p.head === asCaller.json.commit.branch)?.user).toBe('alice');
    } finally {
      await off.close();
    }
  });
});

describe('the caller\'s GitHub token', () => {
  it('is never logged nor stored: no log line, commit or pull request carries it, on success or refusal, over MCP and REST', async () => {
    const lines: string[] = [];
    const log = createLogger({
      level: 'debug', pretty: false,
      destination: new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } }),
    });
    const logged = await serveCommitWorld('app', () => undefined, log);
    try {
      const ok = await logged.mcp('update_agent', { name: 'sre', toolset: ['preset:none'], mode: 'commit' }, { 'X-GitHub-Token': WRITER_TOKEN });
      expect(ok.isError).toBe(false);
      const refused = await logged.rest('PATCH', '/agents/kagent/ops?mode=commit', { description: 'x' }, { 'X-GitHub-Token': 'ghp_refused_secret' });
      expect(refused.status).toBe(401);
      expect(lines.length).toBeGreaterThan(0);
      const history = await logged.w.world.repo.git(['log', '--all', '--format=%B']);
      const pulls = JSON.stringify(logged.w.world.github.pulls('acme/fleet'));
      for (const secret of [WRITER_TOKEN, 'ghp_refused_secret']) {
        expect(lines.filter((l) => l.includes(secret))).toEqual([]);
        expect(history).not.toContain(secret);
        expect(pulls).not.toContain(secret);
      }
    } finally {
      await logged.close();
    }
  });
});

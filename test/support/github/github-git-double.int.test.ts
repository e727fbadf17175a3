import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, importPKCS8 } from 'jose';
import { BareRepo } from './bare-repo.js';
import { startGitGitHubDouble, type GitGitHubDouble } from './github-git-double.js';

let repo: BareRepo;
let double: GitGitHubDouble;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

beforeAll(async () => {
  repo = await BareRepo.create();
  await repo.commitFiles('main', { 'README.md': '# fleet\n', 'apps/a.yaml': 'a: 1\n' });
  double = await startGitGitHubDouble({
    repositories: { 'acme/fleet': repo },
    tokens: { writer: { login: 'alice', repositories: { 'acme/fleet': 'write' } }, reader: { login: 'bob', repositories: { 'acme/fleet': 'read' } } },
    app: { id: 42, slug: 'agent-manager', publicKeyPem: keys.publicKey, installations: { 'acme/fleet': 7 } },
    basePath: '/api/v3',
  });
});
afterAll(async () => {
  await double.close();
  await repo.remove();
});

async function call(method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${double.url}${path}`, {
    method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

describe('the GitHub API double over a real bare repository', () => {
  it('builds a commit from blobs, a tree and a ref that git itself then shows', async () => {
    const base = (await call('GET', '/repos/acme/fleet/git/ref/heads/main', 'writer')).json.object.sha;
    const commit = (await call('GET', `/repos/acme/fleet/git/commits/${base}`, 'writer')).json;
    const blob = (await call('POST', '/repos/acme/fleet/git/blobs', 'writer', { content: Buffer.from('b: 2\n').toString('base64'), encoding: 'base64' })).json.sha;
    const tree = await call('POST', '/repos/acme/fleet/git/trees', 'writer', {
      base_tree: commit.tree.sha, tree: [{ path: 'apps/b.yaml', mode: '100644', type: 'blob', sha: blob }, { path: 'apps/a.yaml', mode: '100644', type: 'blob', sha: null }],
    });
    expect(tree.status).toBe(201);
    const made = await call('POST', '/repos/acme/fleet/git/commits', 'writer', { message: 'add b\n\nRequested-by: alice', tree: tree.json.sha, parents: [base] });
    expect(made.status).toBe(201);
    expect((await call('POST', '/repos/acme/fleet/git/refs', 'writer', { ref: 'refs/heads/topic', sha: made.json.sha })).status).toBe(201);
    expect((await call('POST', '/repos/acme/fleet/git/refs', 'writer', { ref: 'refs/heads/topic', sha: made.json.sha })).json.message).toBe('Reference already exists');

    expect(await repo.git(['log', '--format=%s|%(trailers:key=Requested-by,valueonly)', '-1', 'topic'])).toBe('add b|alice\n\n');
    expect(await repo.files('topic')).toEqual(['README.md', 'apps/b.yaml']);
    expect(await repo.show('topic', 'apps/b.yaml')).toBe('b: 2\n');
    const recursive = (await call('GET', '/repos/acme/fleet/git/trees/topic?recursive=1', 'writer')).json.tree.map((e: any) => `${e.type} ${e.path}`);
    expect(recursive).toEqual(['blob README.md', 'tree apps', 'blob apps/b.yaml']);
    const file = (await call('GET', '/repos/acme/fleet/contents/apps/b.yaml?ref=topic', 'writer')).json;
    expect(Buffer.from(file.content, 'base64').toString()).toBe('b: 2\n');
  });

  it('opens a pull request once per head and refuses one without commits', async () => {
    const pr = await call('POST', '/repos/acme/fleet/pulls', 'writer', { title: 't', head: 'topic', base: 'main', body: 'b' });
    expect(pr.status).toBe(201);
    expect(pr.json).toMatchObject({ number: 1, html_url: 'https://github.example/acme/fleet/pull/1', user: { login: 'alice' } });
    expect((await call('POST', '/repos/acme/fleet/pulls', 'writer', { title: 't', head: 'topic', base: 'main' })).json.message).toBe('A pull request already exists for acme:topic.');
    expect((await call('POST', '/repos/acme/fleet/pulls', 'writer', { title: 't', head: 'main', base: 'main' })).status).toBe(422);
    expect(double.pulls('acme/fleet')).toHaveLength(1);
  });

  it('refuses a non-fast-forward ref update unless forced, by compare-and-swap in git', async () => {
    const main = await repo.branch('main');
    const topic = await repo.branch('topic');
    await repo.commitFiles('main', { 'moved.txt': 'x' });
    const refused = await call('PATCH', '/repos/acme/fleet/git/refs/heads/topic', 'writer', { sha: main });
    expect(refused.json.message).toBe('Update is not a fast forward');
    expect(await repo.branch('topic')).toBe(topic);
    expect((await call('PATCH', '/repos/acme/fleet/git/refs/heads/topic', 'writer', { sha: main, force: true })).status).toBe(200);
    expect(await repo.branch('topic')).toBe(main);
  });

  it('answers 401 for an unknown token, 404 for none, and 403 for a write with read access', async () => {
    expect((await call('GET', '/repos/acme/fleet', 'nope')).status).toBe(401);
    expect((await call('GET', '/repos/acme/fleet', undefined)).status).toBe(404);
    expect((await call('GET', '/repos/acme/fleet', 'reader')).status).toBe(200);
    expect((await call('POST', '/repos/acme/fleet/git/blobs', 'reader', { content: 'x' })).status).toBe(403);
  });

  it('issues installation tokens to a JWT signed by the app key, and to nothing else', async () => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer('42').setIssuedAt(now - 30).setExpirationTime(now + 300)
      .sign(await importPKCS8(keys.privateKey, 'RS256'));
    const installation = await call('GET', '/repos/acme/fleet/installation', jwt);
    expect(installation.json.id).toBe(7);
    const token = (await call('POST', '/app/installations/7/access_tokens', jwt)).json.token;
    expect((await call('GET', '/repos/acme/fleet', token)).status).toBe(200);
    expect((await call('POST', '/app/installations/7/access_tokens', 'writer')).status).toBe(401);
  });

  it('runs a hook just before the matching request, to move a branch between read and write', async () => {
    const before = await repo.branch('main');
    double.before('POST', '/repos/acme/fleet/git/blobs', async () => {
      await repo.commitFiles('main', { 'concurrent.txt': 'y' });
    });
    await call('POST', '/repos/acme/fleet/git/blobs', 'writer', { content: 'z' });
    expect(await repo.branch('main')).not.toBe(before);
  });
});

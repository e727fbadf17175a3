import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestContext } from '../identity/caller.js';
import { GitHubGitOpsHost } from './commit-host.js';

// A loopback GitHub that answers a proposal's calls, with one route answered as a test chooses.
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
interface Fake { url: string; deleted: string[]; close(): Promise<void> }
let fake: Fake | undefined;
afterEach(() => fake?.close());

async function startFake(refuse: { route: RegExp; answer: Answer }): Promise<Fake> {
  const deleted: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const route = `${req.method} ${req.url}`;
      const send = ({ status, body, headers }: Answer) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (refuse.route.test(route)) return send(refuse.answer);
      if (req.method === 'DELETE' && req.url!.startsWith('/repos/acme/fleet/git/refs/')) {
        deleted.push(decodeURIComponent(req.url!.slice('/repos/acme/fleet/git/refs/'.length)));
        return send({ status: 204 });
      }
      if (route.startsWith('GET /repos/acme/fleet/git/commits/')) return send({ status: 200, body: { sha: 'base', tree: { sha: 't0' } } });
      if (route === 'POST /repos/acme/fleet/git/trees') return send({ status: 201, body: { sha: 't1' } });
      if (route === 'POST /repos/acme/fleet/git/commits') return send({ status: 201, body: { sha: 'c1' } });
      if (route.startsWith('GET /repos/acme/fleet/git/ref/')) return send({ status: 200, body: { object: { sha: 'base' } } });
      if (route === 'POST /repos/acme/fleet/git/refs') return send({ status: 201, body: { ref: 'refs/heads/x' } });
      if (route === 'POST /repos/acme/fleet/pulls') return send({ status: 201, body: { number: 7, html_url: 'https://github.test/pr/7' } });
      return send({ status: 404, body: { message: 'Not Found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${port}`, deleted, close };
}

const ctx = { requestId: 'r', log: pino({ level: 'silent' }), githubToken: 'ghp_caller' } as unknown as RequestContext;
const proposal = {
  repository: { owner: 'acme', name: 'fleet' }, base: 'main', baseCommit: 'base', branch: 'agent-manager/update-sre',
  message: 'm', title: 't', body: 'b', changes: [{ path: 'a.yaml', content: 'x: 1\n' }],
};
const host = (url: string) =>
  new GitHubGitOpsHost({ apiUrl: url, client: { retries: 0, retryBaseMs: 1, writeSpacingMs: 0 } });
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); },
  (e: Error & { status?: number }) => ({ status: e.status, message: e.message }));

describe('GitHubGitOpsHost.propose when GitHub refuses', () => {
  it('deletes the branch it pushed when the pull request is refused, and says so (409 for an existing one)', async () => {
    fake = await startFake({ route: /^POST \/repos\/acme\/fleet\/pulls$/, answer: { status: 422,
      body: { message: 'Validation Failed', errors: [{ message: 'A pull request already exists for acme:agent-manager/update-sre.' }] } } });
    expect(await refusal(host(fake.url).propose(ctx, proposal))).toEqual({
      status: 409,
      message: 'conflict: GitHub refused to open the pull request in acme/fleet: Validation Failed (A pull request already exists ' +
        'for acme:agent-manager/update-sre.); the branch agent-manager/update-sre pushed for it was deleted',
    });
    expect(fake.deleted).toEqual(['heads/agent-manager/update-sre']);
  });

  it('answers an exhausted rate limit as GitHub\'s trouble with the time it ends, not as a refusal of the credential', async () => {
    fake = await startFake({ route: /^POST \/repos\/acme\/fleet\/git\/trees$/, answer: { status: 403,
      body: { message: 'API rate limit exceeded for user.' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2000000000' } } });
    expect(await refusal(host(fake.url).propose(ctx, proposal))).toEqual({
      status: 502,
      message: 'GitHub API: the caller\'s GitHub token (X-GitHub-Token) has used up its rate limit until ' +
        '2033-05-18T03:33:20.000Z; nothing was proposed: send the change again then',
    });
  });

  it('answers a branch that already exists as a conflict naming it', async () => {
    fake = await startFake({ route: /^POST \/repos\/acme\/fleet\/git\/refs$/, answer: { status: 422, body: { message: 'Reference already exists' } } });
    const { status, message } = await refusal(host(fake.url).propose(ctx, proposal));
    expect(status).toBe(409);
    expect(message).toContain('GitHub refused to create branch agent-manager/update-sre in acme/fleet: Reference already exists');
    expect(fake.deleted).toEqual([]);
  });
});

/**
 * A loopback double of the GitHub REST API for commit mode (tests only): its git endpoints work on real
 * bare repositories and pull requests are recorded beside them, so tests assert on what was pushed,
 * never on the double's memory. Authentication as GitHub does it: bearer or `token` personal and
 * installation tokens (401 unknown, 404 unseen repository, 403 read-only writes) and a GitHub App's
 * RS256 JWT for the installation lookup and access-token endpoints.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';
import type { BareRepo } from './bare-repo.js';
import { gitRoute, type PullRequest, type Reply, type RepoState } from './git-routes.js';

export type Access = 'read' | 'write';

export interface TokenGrant {
  /** The user (or `<app>[bot]`) the token acts as. */
  login: string;
  /** Repository (`owner/name`) → what the token may do there; others are invisible (404). */
  repositories: Record<string, Access>;
}

export interface AppRegistration {
  id: number;
  /** The app's public key (SPKI PEM) the JWTs are checked against. */
  publicKeyPem: string;
  slug: string;
  /** Repository (`owner/name`) → the id of the installation that covers it. */
  installations: Record<string, number>;
  /** What installation tokens may do (write by default). */
  access?: Access;
}

export interface GitGitHubDoubleOptions {
  repositories: Record<string, BareRepo>;
  tokens?: Record<string, TokenGrant>;
  app?: AppRegistration;
  /** A path prefix, as GitHub Enterprise serves the API under `/api/v3`. */
  basePath?: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The login the request was authenticated as (undefined for anonymous or the app JWT). */
  login?: string;
}

export interface GitGitHubDouble {
  readonly url: string;
  readonly calls: RecordedCall[];
  /** The pull requests opened on a repository. */
  pulls(fullName: string): PullRequest[];
  /** Runs `action` once, just before the first later request matching method and path prefix is served (one hook per
   * request). */
  before(method: string, pathPrefix: string, action: () => Promise<void>): void;
  /** Installation tokens issued so far. */
  readonly issuedInstallationTokens: number;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;

export async function startGitGitHubDouble(options: GitGitHubDoubleOptions): Promise<GitGitHubDouble> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const tokens = new Map(Object.entries(options.tokens ?? {}));
  const calls: RecordedCall[] = [];
  const hooks: Array<{ method: string; prefix: string; action: () => Promise<void> }> = [];
  const states = new Map<string, RepoState>();
  for (const [fullName, repo] of Object.entries(options.repositories)) {
    states.set(fullName.toLowerCase(), { fullName, repo, pulls: [], htmlUrl: `https://github.example/${fullName}` });
  }
  const appKey = options.app ? await importSPKI(options.app.publicKeyPem, 'RS256') : undefined;
  let issued = 0;
  let queue = Promise.resolve();

  async function appJwtValid(header: string | undefined): Promise<boolean> {
    const jwt = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
    if (!jwt || !appKey || !options.app) return false;
    try {
      const { payload } = await jwtVerify(jwt, appKey, { algorithms: ['RS256'] });
      return String(payload.iss) === String(options.app.id);
    } catch {
      return false;
    }
  }

  async function handle(req: IncomingMessage, body: unknown): Promise<Reply> {
    const raw = req.url ?? '/';
    const prefixed = raw === basePath || raw.startsWith(`${basePath}/`) || raw.startsWith(`${basePath}?`);
    const path = prefixed ? raw.slice(basePath.length) || '/' : raw;
    const url = new URL(path, 'http://double');
    const method = req.method ?? 'GET';
    const call: RecordedCall = { method, path, headers: req.headers };
    calls.push(call);
    // An Enterprise server answers its API only under the prefix; a client that left it out gets GitHub's 404.
    if (!prefixed) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    // One hook per request, in the order they were registered.
    const hook = hooks.find((h) => h.method === method && url.pathname.startsWith(h.prefix));
    if (hook) {
      hooks.splice(hooks.indexOf(hook), 1);
      await hook.action();
    }
    const app = options.app;
    let m: RegExpExecArray | null;
    if (app && method === 'POST' && (m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname))) {
      if (!(await appJwtValid(req.headers.authorization))) return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      const id = Number(m[1]);
      const covered = Object.entries(app.installations).filter(([, inst]) => inst === id).map(([repo]) => repo);
      if (covered.length === 0) return { status: 404, body: { message: 'Not Found' } };
      const token = `ghs_${randomBytes(12).toString('hex')}`;
      tokens.set(token, { login: `${app.slug}[bot]`, repositories: Object.fromEntries(covered.map((r) => [r, app.access ?? 'write'])) });
      issued++;
      return { status: 201, body: { token, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { contents: 'write', pull_requests: 'write' } } };
    }
    // GitHub's root endpoint: links to the API's parts, for anyone.
    if (method === 'GET' && url.pathname === '/') {
      const base = `http://${req.headers.host ?? '127.0.0.1'}${basePath}`;
      return { status: 200, body: { current_user_url: `${base}/user`, repository_url: `${base}/repos/{owner}/{repo}` } };
    }
    const repoMatch = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!repoMatch) return { status: 404, body: { message: 'Not Found' } };
    const fullName = `${decodeURIComponent(repoMatch[1]!)}/${decodeURIComponent(repoMatch[2]!)}`;
    const rest = repoMatch[3] ?? '';
    const state = states.get(fullName.toLowerCase());
    if (app && method === 'GET' && rest === '/installation') {
      if (!(await appJwtValid(req.headers.authorization))) return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      const id = Object.entries(app.installations).find(([repo]) => repo.toLowerCase() === fullName.toLowerCase())?.[1];
      return id === undefined ? { status: 404, body: { message: 'Not Found' } } : { status: 200, body: { id, app_id: app.id, account: { login: repoMatch[1] } } };
    }
    const presented = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const grant = presented === undefined ? undefined : tokens.get(presented);
    if (presented !== undefined && !grant) return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } };
    call.login = grant?.login;
    const access =
      grant && state
        ? Object.entries(grant.repositories).find(([r]) => r.toLowerCase() === fullName.toLowerCase())?.[1]
        : undefined;
    if (!state || !access) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    if (method !== 'GET' && access !== 'write') {
      return { status: 403, body: { message: 'Resource not accessible by personal access token', documentation_url: 'https://docs.github.com/rest' } };
    }
    const wantsRaw = req.headers.accept === 'application/vnd.github.raw+json' || req.headers.accept === 'application/vnd.github.raw';
    return gitRoute(state, method, rest, url.searchParams, body, grant!.login, wantsRaw);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return send(res, { status: 413, body: { message: 'Payload too large' } });
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        return send(res, { status: 400, body: { message: 'Problems parsing JSON' } });
      }
      // One request at a time: GitHub serialises ref updates per repository, and the
      // scratch indexes and ref locks of the bare repositories stay simple.
      queue = queue.then(() =>
        handle(req, body).then(
          (reply) => send(res, reply), (err: Error) => send(res, { status: 500, body: { message: err.message } }),
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    calls,
    pulls: (fullName) => states.get(fullName.toLowerCase())?.pulls ?? [],
    before: (method, pathPrefix, action) => {
      hooks.push({ method, prefix: pathPrefix, action });
    },
    get issuedInstallationTokens() {
      return issued;
    },
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    }),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.raw !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
    res.end(reply.raw);
    return;
  }
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'x-github-api-version-selected': '2022-11-28' });
  res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
}

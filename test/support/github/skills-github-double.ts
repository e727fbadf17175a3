/**
 * A loopback double of the GitHub REST reads skill discovery makes (tests only): repository, commit of
 * a ref (422 otherwise, as GitHub), recursive tree and contents (raw or JSON), every ref nameable by its
 * commit. Knobs for the catalog's claims: private repositories, a required token, truncated trees,
 * unreadable files, rate limits (403 with `x-ratelimit-*`, or 429 `retry-after`), a gate holding file
 * reads to observe concurrency, and a request log.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file's content, or the error GitHub answers for it. */
export type DoubleFile = string | { status: number; body?: string };

/** What a ref (branch, tag or commit) holds. */
export interface DoubleRef {
  files: Record<string, DoubleFile>;
  /** GitHub's `truncated` flag on the recursive tree. */
  truncated?: boolean;
  /** The commit the ref points at; default `doubleCommit(<owner/repo>, <ref>)`. */
  commit?: string;
}

/** The commit a ref of the double points at unless it says otherwise: 40 hex, stable per repository and ref. */
export function doubleCommit(repository: string, ref: string): string {
  return createHash('sha1').update(`${repository}@${ref}`).digest('hex');
}

export interface DoubleRepository {
  /** Omitted from the repository JSON when undefined, so the `main` fallback can be tested. */
  defaultBranch?: string;
  /** Answers 404 unless the request carries the double's token. */
  private?: boolean;
  refs: Record<string, DoubleRef>;
}

export interface GitHubDoubleOptions {
  /** Keyed by `owner/repo`. */
  repositories: Record<string, DoubleRepository>;
  /** The token private repositories need; a request with another bearer gets 401. */
  token?: string;
  /** A path prefix, as GitHub Enterprise serves the API under `/api/v3`. */
  basePath?: string;
}

export interface RateLimit {
  status?: 403 | 429;
  /** Sent as `x-ratelimit-reset` (epoch seconds). */
  resetEpochSeconds?: number;
  /** Sent as `retry-after`. */
  retryAfterSeconds?: number;
  /** Requests still answered normally before the limit bites (default 0). */
  afterRequests?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path and query below `basePath`, as sent (still percent-encoded). */
  path: string;
  headers: IncomingHttpHeaders;
}

export interface GitHubDouble {
  /** The API base URL to configure (`http://127.0.0.1:<port><basePath>`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests whose path starts with `prefix` (all when omitted). */
  count(prefix?: string): number;
  /** Points `ref` of `repository` (`owner/repo`) at `commit`, as a push to a branch does. */
  moveRef(repository: string, ref: string, commit: string): void;
  /** Rate-limit every following request (after `afterRequests`); undefined lifts the limit. */
  rateLimit(limit: RateLimit | undefined): void;
  /** Holds file reads until the returned function is called. */
  hold(): () => void;
  /** File reads being answered right now, and the most there ever were at once. */
  readonly contentsInFlight: number;
  readonly maxContentsInFlight: number;
  /** Starts a new measurement of `maxContentsInFlight`. */
  resetMaxContentsInFlight(): void;
  close(): Promise<void>;
}

/** Starts the double on an ephemeral loopback port. */
export async function startGitHubDouble(options: GitHubDoubleOptions): Promise<GitHubDouble> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const requests: RecordedRequest[] = [];
  let limit: RateLimit | undefined;
  let gate: Promise<void> | undefined;
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    const raw = req.url ?? '/';
    const path = raw.startsWith(basePath) ? raw.slice(basePath.length) : raw;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const bearer = req.headers.authorization;
    if (options.token && bearer !== undefined && bearer !== `Bearer ${options.token}`) {
      return json(res, 401, { message: 'Bad credentials' });
    }
    if (limit) {
      if ((limit.afterRequests ?? 0) > 0) limit.afterRequests = (limit.afterRequests ?? 0) - 1;
      else return rateLimited(res, limit);
    }
    const url = new URL(path, 'http://double');
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const repository = match ? options.repositories[`${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`] : undefined;
    const authorized = options.token !== undefined && bearer === `Bearer ${options.token}`;
    if (!match || !repository || (repository.private && !authorized)) return notFound(res);
    const rest = match[3] ?? '';
    const key = `${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`;
    const refAt = (name: string): DoubleRef | undefined =>
      repository.refs[name] ??
      Object.entries(repository.refs).find(([ref, r]) => (r.commit ?? doubleCommit(key, ref)) === name)?.[1];
    if (rest === '') {
      return json(res, 200, { full_name: `${match[1]}/${match[2]}`, private: Boolean(repository.private), ...(repository.defaultBranch ? { default_branch: repository.defaultBranch } : {}) });
    }
    if (rest.startsWith('/commits/')) {
      const name = decodeURIComponent(rest.slice('/commits/'.length));
      const entry = Object.entries(repository.refs).find(
        ([ref, r]) => ref === name || (r.commit ?? doubleCommit(key, ref)) === name,
      );
      if (!entry) return json(res, 422, { message: `No commit found for SHA: ${name}`, status: '422' });
      return json(res, 200, { sha: entry[1].commit ?? doubleCommit(key, entry[0]), commit: { message: `head of ${entry[0]}` } });
    }
    if (rest.startsWith('/git/trees/')) {
      const ref = refAt(decodeURIComponent(rest.slice('/git/trees/'.length)));
      if (!ref) return notFound(res);
      return json(res, 200, { sha: 'f'.repeat(40), tree: treeOf(ref), truncated: Boolean(ref.truncated) });
    }
    if (rest.startsWith('/contents/')) {
      const file = rest.slice('/contents/'.length).split('/').map(decodeURIComponent).join('/');
      const content = refAt(url.searchParams.get('ref') ?? '')?.files[file];
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      void (gate ?? Promise.resolve()).then(() => {
        inFlight--;
        if (content === undefined) return notFound(res);
        if (typeof content !== 'string') return text(res, content.status, content.body ?? `{"message":"Server Error"}`);
        if (req.headers.accept === 'application/vnd.github.raw+json') return text(res, 200, content);
        return json(res, 200, { type: 'file', path: file, encoding: 'base64', content: Buffer.from(content).toString('base64') });
      });
      return;
    }
    return notFound(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests,
    count: (prefix = '') => requests.filter((r) => r.path.startsWith(prefix)).length,
    moveRef: (repository, ref, commit) => {
      const target = options.repositories[repository]?.refs[ref];
      if (!target) throw new Error(`the double has no ref ${ref} in ${repository}`);
      target.commit = commit;
    },
    rateLimit: (next) => {
      limit = next ? { ...next } : undefined;
    },
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
    get contentsInFlight() {
      return inFlight;
    },
    get maxContentsInFlight() {
      return maxInFlight;
    },
    resetMaxContentsInFlight: () => {
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** The recursive tree GitHub reports: every file as a blob and every directory as a tree. */
function treeOf(ref: DoubleRef): { path: string; type: 'blob' | 'tree'; mode: string }[] {
  const dirs = new Set<string>();
  for (const file of Object.keys(ref.files)) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return [
    ...[...dirs].map((path) => ({ path, type: 'tree' as const, mode: '040000' })),
    ...Object.keys(ref.files).map((path) => ({ path, type: 'blob' as const, mode: '100644' })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function rateLimited(res: ServerResponse, limit: RateLimit): void {
  const headers: Record<string, string> = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' };
  if (limit.resetEpochSeconds !== undefined) headers['x-ratelimit-reset'] = String(limit.resetEpochSeconds);
  if (limit.retryAfterSeconds !== undefined) headers['retry-after'] = String(limit.retryAfterSeconds);
  json(res, limit.status ?? 403, { message: 'API rate limit exceeded for 127.0.0.1.' }, headers);
}

function notFound(res: ServerResponse): void {
  json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}

/**
 * The repositories most tests read: a public one with three skills (nested, one without
 * frontmatter), a private one, one whose tree GitHub truncated, one with an unreadable
 * SKILL.md, and one without a default branch in its metadata.
 */
export function sampleRepositories(): Record<string, DoubleRepository> {
  return {
    'giantswarm/agent-skills': {
      defaultBranch: 'main',
      refs: {
        main: {
          files: {
            'README.md': '# skills\n',
            'agent-self-awareness/SKILL.md': '---\nname: self-awareness\ndescription: Knows what it is.\n---\n# body\n',
            'nested/runbooks/SKILL.md': '---\nname: runbooks\ndescription: |\n  Operates things.\n---\n',
            'noname/SKILL.md': '# no frontmatter at all\n',
            'noname/NOT-SKILL.md': 'ignored',
          },
        },
        feature: { files: { 'README.md': '# nothing here\n' } },
      },
    },
    'giantswarm/private-skills': {
      defaultBranch: 'trunk',
      private: true,
      refs: { trunk: { files: { 'secret/SKILL.md': '---\nname: secret\n---\n' } } },
    },
    'giantswarm/huge-skills': {
      defaultBranch: 'main',
      refs: { main: { truncated: true, files: { 'a/SKILL.md': '---\nname: a\n---\n' } } },
    },
    'giantswarm/broken-skills': {
      defaultBranch: 'main',
      refs: { main: { files: { 'good/SKILL.md': '---\nname: good\n---\n', 'bad/SKILL.md': { status: 500 } } } },
    },
    'giantswarm/root-skill': {
      refs: { main: { files: { 'SKILL.md': '---\ndescription: At the root.\n---\n' } } },
    },
  };
}

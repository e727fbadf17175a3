/**
 * Commit mode's GitOps host over the GitHub REST API, through the shared Octokit: reads the branch's
 * commit, tree and the (bounded) manifest blobs; writes one tree and one commit on the base, then, only
 * if the base branch still points there, the branch ref and pull request, so a moved base is reported
 * for a new plan rather than proposed stale. As whom: the caller's `X-GitHub-Token`, else the GitHub App
 * installation or its token (docs/gitops.md "As whom"); no credential is logged or put in an error.
 */
import { createAppAuth } from '@octokit/auth-app';
import { AppError, backendError, conflict, forbidden, isAppError, notFound, unauthenticated } from '../core/errors.js';
import { asObject } from '../core/json.js';
import type { RequestContext } from '../identity/caller.js';
import type { GitOpsHost, GitSnapshot, Proposal, ProposalOutcome, RepoRef } from '../service/ports.js';
import { createOctokit, isHttpError, type GitHubOctokit, type OctokitSettings } from './octokit.js';

/** More manifests than this below one directory is not an agents directory; refuse rather than read it all. */
const MAX_FILES = 2000;
const MAX_FILE_BYTES = 1024 * 1024;
const READ_CONCURRENCY = 8;

export interface GitHubHostConfig {
  apiUrl: string;
  /** GitHub App id and private key (PEM): the app's installation on each repository writes. */
  app?: { appId: string; privateKey: string };
  /** A token for every repository (`--gitops-github-token`). */
  token?: string;
  /** Client knobs (tests: no write spacing, fast retries). */
  client?: Partial<OctokitSettings>;
}

type Credential = { kind: 'caller' | 'app' | 'token'; octokit: GitHubOctokit };

const isManifestPath = (path: string) =>
  /\.ya?ml$/i.test(path) || path.endsWith('/Kustomization') || path === 'Kustomization';

export class GitHubGitOpsHost implements GitOpsHost {
  readonly installation?: 'app' | 'token';
  private readonly tokenClient?: GitHubOctokit;
  private readonly appClient?: GitHubOctokit;
  // A cache of installation clients by id (their tokens are cached and renewed by auth-app).
  // Performance only: a replica without it looks the installation up again.
  private readonly installations = new Map<number, GitHubOctokit>();

  constructor(private readonly config: GitHubHostConfig) {
    if (config.app) {
      this.installation = 'app';
      this.appClient = this.client({
        authStrategy: createAppAuth, auth: { appId: config.app.appId, privateKey: config.app.privateKey },
      });
    } else if (config.token) {
      this.installation = 'token';
      this.tokenClient = this.client({ auth: config.token });
    }
  }

  async read(ctx: RequestContext, repository: RepoRef, branch: string, directory: string): Promise<GitSnapshot> {
    const cred = await this.credential(ctx, repository);
    const repo = { owner: repository.owner, repo: repository.name };
    const commit = await this.call(cred, repository, `read branch ${branch}`,
      () => cred.octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` }), branch);
    const sha = commit.data.object.sha;
    const tree = await this.call(cred, repository, 'read the tree',
      () => cred.octokit.rest.git.getTree({ ...repo, tree_sha: sha, recursive: 'true' }));
    if (tree.data.truncated) throw backendError(`the tree of ${full(repository)}@${branch} is too large for GitHub ` +
      `to list; point the Kustomization (or path) at a smaller directory`);
    const prefix = directory === '' ? '' : `${directory}/`;
    const blobs = tree.data.tree.filter((e) =>
      e.type === 'blob' && typeof e.path === 'string' && e.path.startsWith(prefix) && isManifestPath(e.path));
    if (blobs.length > MAX_FILES) throw backendError(`${full(repository)}@${branch} has ${blobs.length} manifests ` +
      `under ${directory || '/'}; at most ${MAX_FILES} are read`);
    const big = blobs.find((b) => (b.size ?? 0) > MAX_FILE_BYTES);
    if (big) throw backendError(`${big.path} in ${full(repository)}@${branch} is larger than ${MAX_FILE_BYTES} ` +
      `bytes; agent-manager does not edit it`);
    const files: Record<string, string> = {};
    for (let i = 0; i < blobs.length; i += READ_CONCURRENCY) {
      await Promise.all(blobs.slice(i, i + READ_CONCURRENCY).map(async (b) => {
        const blob = await this.call(cred, repository, `read ${b.path}`,
          () => cred.octokit.rest.git.getBlob({ ...repo, file_sha: b.sha! }));
        files[b.path!] = Buffer.from(blob.data.content, 'base64').toString('utf8');
      }));
    }
    return { commit: sha, files };
  }

  async propose(ctx: RequestContext, p: Proposal): Promise<ProposalOutcome> {
    const cred = await this.credential(ctx, p.repository);
    const repo = { owner: p.repository.owner, repo: p.repository.name };
    const base = await this.call(cred, p.repository, 'read the base commit',
      () => cred.octokit.rest.git.getCommit({ ...repo, commit_sha: p.baseCommit }));
    const tree = await this.call(cred, p.repository, 'write the tree', () => cred.octokit.rest.git.createTree({
      ...repo, base_tree: base.data.tree.sha,
      tree: p.changes.map((c) => (c.content === null
        ? { path: c.path, mode: '100644' as const, type: 'blob' as const, sha: null }
        : { path: c.path, mode: '100644' as const, type: 'blob' as const, content: c.content })),
    }));
    const commit = await this.call(cred, p.repository, 'write the commit', () => cred.octokit.rest.git.createCommit({
      ...repo, message: p.message, tree: tree.data.sha, parents: [p.baseCommit],
    }));
    const head = await this.call(cred, p.repository, `read branch ${p.base}`,
      () => cred.octokit.rest.git.getRef({ ...repo, ref: `heads/${p.base}` }), p.base);
    if (head.data.object.sha !== p.baseCommit) return { moved: true, head: head.data.object.sha };
    await this.call(cred, p.repository, `create branch ${p.branch}`,
      () => cred.octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${p.branch}`, sha: commit.data.sha }));
    let pull;
    try {
      pull = await this.call(cred, p.repository, 'open the pull request', () => cred.octokit.rest.pulls.create({
        ...repo, title: p.title, body: p.body, head: p.branch, base: p.base,
      }));
    } catch (err) {
      throw await this.withoutBranch(cred, repo, p.branch, err);
    }
    ctx.log.info({ repository: full(p.repository), branch: p.branch, commit: commit.data.sha,
      pullRequest: pull.data.html_url, as: cred.kind }, 'pull request opened');
    return { moved: false, commit: commit.data.sha, pullRequest: pull.data.html_url, number: pull.data.number };
  }

  /**
   * A branch pushed for a pull request GitHub then refused is deleted, so no half-proposal stays behind
   * (and the same change can be proposed again under the same branch name); the error says which.
   */
  private async withoutBranch(
    cred: Credential, repo: { owner: string; repo: string }, branch: string, err: unknown,
  ): Promise<unknown> {
    if (!isAppError(err)) return err;
    try {
      await cred.octokit.rest.git.deleteRef({ ...repo, ref: `heads/${branch}` });
      return new AppError(err.code, `${err.detail}; the branch ${branch} pushed for it was deleted`, { cause: err });
    } catch {
      return new AppError(err.code, `${err.detail}; the branch ${branch} pushed for it is left in ` +
        `${repo.owner}/${repo.repo}: delete it before proposing the change again`, { cause: err });
    }
  }

  private client(extra: Partial<OctokitSettings>): GitHubOctokit {
    return createOctokit({ apiUrl: this.config.apiUrl, waitForRateLimit: true, ...this.config.client, ...extra });
  }

  /**
   * Whether the API base answers 404 at its root (`GET /`, which github.com and GitHub
   * Enterprise Server both answer): then every 404 under it says the URL is wrong, not
   * that the App is missing; a GHES URL without `/api/v3` is the usual cause. Asked
   * without credentials: the root is public, and the App's client only signs App routes.
   */
  private async apiRootMissing(): Promise<boolean> {
    try {
      await this.client({}).request('GET /');
      return false;
    } catch (err) {
      return isHttpError(err) && err.status === 404;
    }
  }

  /** The caller's token first, then the installation's app or token. */
  private async credential(ctx: RequestContext, repository: RepoRef): Promise<Credential> {
    if (ctx.githubToken) return { kind: 'caller', octokit: this.client({ auth: ctx.githubToken }) };
    if (this.tokenClient) return { kind: 'token', octokit: this.tokenClient };
    if (!this.appClient) throw unauthenticated('commit mode needs a GitHub credential: send X-GitHub-Token, or ' +
      'configure --github-app-id or --gitops-github-token');
    let id: number;
    try {
      const repo = { owner: repository.owner, repo: repository.name };
      id = (await this.appClient.rest.apps.getRepoInstallation(repo)).data.id;
    } catch (err) {
      if (isHttpError(err) && err.status === 404) {
        if (await this.apiRootMissing()) {
          throw backendError(`GitHub API: ${this.config.apiUrl} answers 404 at its root, so it is not the base of ` +
            `GitHub's REST API; set --github-api-url to it (https://<host>/api/v3 on GitHub Enterprise Server)`);
        }
        throw forbidden(`the GitHub App (--github-app-id ${this.config.app!.appId}) is not installed on ` +
          `${full(repository)}; install it there with contents and pull-request write access, or send X-GitHub-Token`);
      }
      if (isHttpError(err) && err.status === 401) {
        throw unauthenticated(`GitHub refused the GitHub App's credentials (--github-app-id ` +
          `${this.config.app!.appId}, --github-app-private-key-file): ${reason(err)}`);
      }
      throw backendError(`GitHub API: finding the GitHub App's installation on ${full(repository)} failed: ` +
        `${err instanceof Error ? err.message : String(err)}`);
    }
    let octokit = this.installations.get(id);
    if (!octokit) {
      octokit = this.client({
        authStrategy: createAppAuth,
        auth: { appId: this.config.app!.appId, privateKey: this.config.app!.privateKey, installationId: id },
      });
      this.installations.set(id, octokit);
    }
    return { kind: 'app', octokit };
  }

  /** Runs one GitHub call, translating its failure into the AppError that says what to do. */
  private async call<T>(
    cred: Credential, repository: RepoRef, what: string, fn: () => Promise<T>, branch?: string,
  ): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const who = WHO[cred.kind];
      if (!isHttpError(err)) {
        throw backendError(`GitHub API: ${what} in ${full(repository)} failed: ` +
          `${err instanceof Error ? err.message : String(err)}`);
      }
      if (err.status === 401) throw unauthenticated(`GitHub refused ${who}: ${reason(err)}`);
      // A primary rate limit comes as 403 or 429 with no requests left: not a refusal of the credential.
      if ((err.status === 403 || err.status === 429) && err.response.headers['x-ratelimit-remaining'] === '0') {
        throw backendError(`GitHub API: ${who} has used up its rate limit${resetText(err)}; nothing was ` +
          `proposed: send the change again then`);
      }
      if (err.status === 429) {
        throw backendError(`GitHub API: too many requests to ${what} in ${full(repository)}${retryText(err)}; ` +
          'nothing was proposed: send the change again then');
      }
      if (err.status === 403) throw forbidden(`${who} may not ${what} in ${full(repository)}: ${reason(err)}`);
      // GitHub's conflicts (a branch or pull request that already exists, a ref that moved): the state of
      // the repository, not a failure of GitHub.
      if (err.status === 409 || err.status === 422) {
        throw conflict(`GitHub refused to ${what} in ${full(repository)}: ${reason(err)}${detailText(err)}`);
      }
      if (err.status === 404 && branch !== undefined) {
        throw notFound(`branch ${branch} of ${full(repository)} does not exist, or ${who} cannot see ` +
          `${full(repository)}`);
      }
      if (err.status === 404) throw forbidden(`${full(repository)} does not exist or ${who} cannot see it (${what})`);
      throw backendError(`GitHub API: ${what} in ${full(repository)} answered ${err.status}: ${reason(err)}`);
    }
  }
}

const WHO: Record<Credential['kind'], string> = {
  caller: 'the caller\'s GitHub token (X-GitHub-Token)',
  app: 'the GitHub App installation (--github-app-id)',
  token: 'the installation token (--gitops-github-token)',
};

const full = (r: RepoRef) => `${r.owner}/${r.name}`;

function reason(err: { message: string; response: { data: unknown } }): string {
  const { message } = asObject(err.response.data);
  const text = typeof message === 'string' ? message : err.message;
  return text.split('\n', 1)[0]!.slice(0, 200);
}

/** ` until <time>` from a rate-limit answer's reset header (epoch seconds), or nothing. */
function resetText(err: { response: { headers: Record<string, string | undefined> } }): string {
  const reset = Number(err.response.headers['x-ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
}

/** ` (retry after N s)` from a Retry-After header, or nothing. */
function retryText(err: { response: { headers: Record<string, string | undefined> } }): string {
  const after = err.response.headers['retry-after'];
  return after && /^\d+$/.test(after) ? `; retry after ${after} s` : '';
}

/** GitHub's validation errors (`errors[].message`), which say what already exists, or nothing. */
function detailText(err: { response: { data: unknown } }): string {
  const { errors } = asObject(err.response.data);
  if (!Array.isArray(errors)) return '';
  const messages = errors.map((e: unknown) => (typeof e === 'object' && e !== null ? asObject(e).message : e))
    .filter((m): m is string => typeof m === 'string');
  return messages.length > 0 ? ` (${messages.join('; ').slice(0, 200)})` : '';
}

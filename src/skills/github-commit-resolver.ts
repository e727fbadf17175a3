/**
 * The git half of skill pinning: the head commit of a branch or tag of a github.com repository
 * through the GitHub REST API (`GET /repos/{o}/{r}` for the default branch when no ref is
 * given, then `GET /repos/{o}/{r}/commits/{ref}`), with the skills client's token, retries and
 * limits. GitHub's no (404, 422, a plain 403) is the caller's to fix: 400. GitHub not
 * answering, failing (5xx), rate-limiting us or refusing our own token (401) is not: 502.
 */
import { asObject } from '../core/json.js';
import { backendError, invalid, isAppError, type AppError } from '../core/errors.js';
import type { SkillResolver } from '../service/ports.js';
import { GitHubApiError, type GitHubClient } from './github-client.js';
import { parseGitHubRepository, type GitHubRepository } from './github-repository.js';

const PRIVATE_HINT =
  'the repository is private or does not exist; a private skill repository needs the skills GitHub App installed on ' +
  'it (or a GITHUB_TOKEN that can read it)';

export class GitHubCommitResolver implements Pick<SkillResolver, 'gitCommit'> {
  constructor(private readonly client: GitHubClient) {}

  async gitCommit(url: string, ref: string | undefined, _signal?: AbortSignal): Promise<string> {
    const repository = parseGitHubRepository(url.trim());
    if (!repository) {
      throw invalid(`not a github.com repository URL: ${url} (expected https://github.com/<owner>/<repo>)`);
    }
    const base = `/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}`;
    let at = ref;
    try {
      at ??= await this.defaultBranch(base);
      const path = `${base}/commits/${at.split('/').map(encodeURIComponent).join('/')}`;
      const { sha } = asObject(await this.client.getJson(path));
      if (typeof sha !== 'string' || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
        throw backendError(`GitHub answered the commit of ${describe(at, ref)} of ${repository.url} ` +
          `without a commit id`);
      }
      return sha;
    } catch (err) {
      throw this.refusal(err, repository, at, ref);
    }
  }

  private async defaultBranch(base: string): Promise<string> {
    const branch = asObject(await this.client.getJson(base)).default_branch;
    return typeof branch === 'string' && branch.trim() ? branch : 'main';
  }

  /** The AppError of a failed lookup, in words that say whose move it is. */
  private refusal(
    err: unknown, repository: GitHubRepository, at: string | undefined, asked: string | undefined,
  ): AppError {
    if (isAppError(err)) return err;
    if (!(err instanceof GitHubApiError)) {
      return backendError(`resolving ${describe(at, asked)} of ${repository.url}: ` +
        `${err instanceof Error ? err.message : String(err)}`, err);
    }
    const what = `${describe(at, asked)} of ${repository.url}`;
    if (err.rateLimit) {
      const when = err.rateLimit.resetAt !== undefined
        ? `; it resets at ${new Date(err.rateLimit.resetAt).toISOString()}` : '';
      return backendError(`GitHub rate-limited resolving ${what}${when}`, err);
    }
    if (err.status === 404 || err.status === 422) {
      const why = err.status === 404
        ? this.client.hasToken
          ? 'GitHub answered 404 — the repository does not exist or the configured token cannot read it (a private ' +
            'skill repository needs the skills GitHub App installed on it, or a GITHUB_TOKEN that can read it)'
          : `GitHub answered 404 without a token — ${PRIVATE_HINT}`
        : `GitHub answered 422 — ${at ?? 'the ref'} is not a branch, tag or commit of the repository`;
      return invalid(`unresolvable skill reference: ${what} could not be resolved: ${why}`, err);
    }
    if (err.status === 403) {
      return invalid(`unresolvable skill reference: ${what} could not be resolved: GitHub refused the read (403)`, err);
    }
    return backendError(`resolving ${what}: ${err.message}`, err);
  }
}

function describe(at: string | undefined, asked: string | undefined): string {
  if (asked === undefined) return at === undefined ? 'the default branch' : `the default branch (${at})`;
  return `ref ${asked}`;
}

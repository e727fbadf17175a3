/**
 * The few GitHub REST reads skill discovery makes, through the shared Octokit (github/octokit.ts: API
 * version, retries, throttling, an 8 MiB body cap, 30 s timeout), with a bearer only when configured.
 * Every failure is a `GitHubApiError` ready to show: `GitHub API <url> returned <code>: <first line>`.
 * Trust boundary: the token goes only to the configured API base URL, never into an error or a log;
 * response bodies are untrusted and capped.
 */

import { asObject } from '../core/json.js';
import { createOctokit, GitHubTransportError, isHttpError, type GitHubOctokit } from '../github/octokit.js';

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS, GITHUB_API_VERSION } from '../github/octokit.js';

export interface GitHubClientConfig {
  /** The API base URL, e.g. `https://api.github.com` or `https://ghe.example.com/api/v3`. */
  apiUrl: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; used to turn `Retry-After` into a reset time. */
  now?: () => number;
  /** Backoff unit of the retries of a transient failure (default 1 s). */
  retryBaseMs?: number;
}

/** Why a GitHub read failed, with the rate-limit reset when GitHub throttled it. */
export class GitHubApiError extends Error {
  override readonly name = 'GitHubApiError';

  constructor(
    message: string,
    readonly url: string,
    /** The HTTP status, when GitHub answered at all. */
    readonly status?: number,
    /** Present when GitHub refused because of a rate limit; `resetAt` in epoch ms when it said. */
    readonly rateLimit?: { resetAt?: number },
  ) {
    super(message);
  }
}

/** A GitHub REST client for public and token-readable repositories, over Octokit. */
export class GitHubClient {
  private readonly octokit: GitHubOctokit;
  private readonly now: () => number;

  constructor(private readonly config: GitHubClientConfig) {
    this.now = config.now ?? Date.now;
    this.octokit = createOctokit({
      apiUrl: config.apiUrl, auth: config.token || undefined, timeoutMs: config.timeoutMs,
      maxBodyBytes: config.maxBodyBytes, fetch: config.fetch, retryBaseMs: config.retryBaseMs,
    });
  }

  /** True when requests carry a token (error texts suggest one when they do not). */
  get hasToken(): boolean {
    return Boolean(this.config.token);
  }

  /** GET `path` (below the API base, already percent-encoded) as JSON. */
  async getJson(path: string): Promise<unknown> {
    const data = await this.get(path, 'application/vnd.github+json');
    if (typeof data === 'string' || data instanceof ArrayBuffer) {
      throw new GitHubApiError(`GitHub API ${this.urlOf(path)} answered with something that is not JSON`,
        this.urlOf(path));
    }
    return data;
  }

  /** GET `path` (below the API base) as raw file content. */
  async getRaw(path: string): Promise<string> {
    const data = await this.get(path, 'application/vnd.github.raw+json');
    if (typeof data === 'string') return data;
    if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
    return JSON.stringify(data);
  }

  private urlOf(path: string): string {
    return this.config.apiUrl.replace(/\/+$/, '') + path;
  }

  private async get(path: string, accept: string): Promise<unknown> {
    try {
      // A literal path (no {placeholders}): Octokit sends it as given, query included.
      return (await this.octokit.request({ method: 'GET', url: path, headers: { accept } })).data;
    } catch (err) {
      throw toGitHubApiError(err, this.urlOf(path), this.now());
    }
  }
}

/** The error of a request in the words every listing shows: `GitHub API <url> returned <code>: <why>`. */
export function toGitHubApiError(err: unknown, url: string, now: number): GitHubApiError {
  if (err instanceof GitHubApiError) return err;
  if (err instanceof GitHubTransportError) return new GitHubApiError(err.message, err.url, err.answeredStatus);
  if (isHttpError(err)) {
    const status = err.status;
    const headers = err.response.headers;
    return new GitHubApiError(
      `GitHub API ${url} returned ${status}: ` +
      `${reasonOf(err.response.data) || err.message}`, url, status, rateLimitOf(status, headers, now),
    );
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
  const message = err instanceof Error ? err.message : String(err);
  return new GitHubApiError(`GitHub API ${url} could not be reached: ${cause ?? message}`, url);
}

/**
 * What an error body says. GitHub answers errors as JSON (`{"message":"Not Found",…}`);
 * its `message` is the meaning, so it is shown instead of the raw JSON. A text body
 * contributes its first line, cut to a sane length.
 */
function reasonOf(data: unknown): string {
  if (data && typeof data === 'object' && !(data instanceof ArrayBuffer)) {
    const { message } = asObject(data);
    if (typeof message === 'string' && message.trim()) return message.trim();
    return '';
  }
  const text = typeof data === 'string' ? data : data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : '';
  const line = (text.split('\n', 1)[0] ?? '').trim();
  if (line.startsWith('{')) {
    try {
      const { message } = asObject(JSON.parse(line));
      if (typeof message === 'string' && message.trim()) return message.trim();
    } catch {
      // Not JSON after all: show the line itself.
    }
  }
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * GitHub's rate-limit refusals: 429, or 403 with `x-ratelimit-remaining: 0` (the primary
 * limit) or a `retry-after` (a secondary limit). A plain 403 is a permission problem.
 */
function rateLimitOf(
  status: number, headers: Record<string, string | undefined>, now: number,
): { resetAt?: number } | undefined {
  const remaining = headers['x-ratelimit-remaining'];
  const retryAfter = headers['retry-after'];
  const limited = status === 429 || (status === 403 && (remaining === '0' || retryAfter !== undefined));
  if (!limited) return undefined;
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && retryAfter.trim() !== '') return { resetAt: now + seconds * 1000 };
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return { resetAt: date };
  }
  const reset = Number(headers['x-ratelimit-reset'] ?? NaN);
  return Number.isFinite(reset) && reset > 0 ? { resetAt: reset * 1000 } : {};
}

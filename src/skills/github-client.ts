/**
 * The few GitHub REST API reads skill discovery makes, with the house rules of every
 * request: `X-GitHub-Api-Version: 2022-11-28`, a bearer token only when one is
 * configured, a body cap (8 MiB) and a timeout (30 s). Every failure becomes a
 * `GitHubApiError` whose message is ready to show in a listing:
 * `GitHub API <url> returned <code>: <first line>`.
 *
 * Trust boundary: the token goes only to the configured API base URL; it is never put in
 * an error message or a log line. Response bodies are untrusted and size-capped.
 */

export const GITHUB_API_VERSION = '2022-11-28';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Enough of an error body for its first line; the rest is not read. */
const ERROR_BODY_BYTES = 64 * 1024;

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

/** A GitHub REST client for public and token-readable repositories. */
export class GitHubClient {
  private readonly apiUrl: string;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;

  constructor(private readonly config: GitHubClientConfig) {
    this.apiUrl = config.apiUrl.replace(/\/+$/, '');
    this.fetch = config.fetch ?? globalThis.fetch;
    this.now = config.now ?? Date.now;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /** True when requests carry a token (error texts suggest one when they do not). */
  get hasToken(): boolean {
    return Boolean(this.config.token);
  }

  /** GET `path` (below the API base) as JSON. */
  async getJson(path: string): Promise<unknown> {
    const { url, body } = await this.get(path, 'application/vnd.github+json');
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new GitHubApiError(`GitHub API ${url} answered with something that is not JSON`, url);
    }
  }

  /** GET `path` (below the API base) as raw file content. */
  async getRaw(path: string): Promise<string> {
    return (await this.get(path, 'application/vnd.github.raw+json')).body;
  }

  private async get(path: string, accept: string): Promise<{ url: string; body: string }> {
    const url = this.apiUrl + path;
    const headers: Record<string, string> = {
      accept,
      'x-github-api-version': GITHUB_API_VERSION,
      'user-agent': 'agent-manager',
    };
    if (this.config.token) headers.authorization = `Bearer ${this.config.token}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await this.fetch(url, { headers, signal, redirect: 'follow' });
      if (!res.ok) {
        const body = await readCapped(res, ERROR_BODY_BYTES, url).catch(() => '');
        throw new GitHubApiError(
          `GitHub API ${url} returned ${res.status}: ${firstLine(body) || res.statusText}`,
          url,
          res.status,
          rateLimitOf(res, this.now()),
        );
      }
      return { url, body: await readCapped(res, this.maxBodyBytes, url) };
    } catch (err) {
      throw toGitHubApiError(err, url, this.timeoutMs);
    }
  }
}

/** The body as text, refusing (and cancelling) one larger than `max` bytes. */
async function readCapped(res: Response, max: number, url: string): Promise<string> {
  const tooLarge = () => new GitHubApiError(`GitHub API ${url} answered with more than ${max} bytes`, url, res.status);
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The first line of an error body. GitHub answers errors as one-line JSON
 * (`{"message":"Not Found","documentation_url":…}`); its `message` is that line's
 * meaning, so it is shown instead of the raw JSON.
 */
function firstLine(body: string): string {
  const line = (body.split('\n', 1)[0] ?? '').trim();
  if (line.startsWith('{')) {
    try {
      const message = (JSON.parse(line) as { message?: unknown }).message;
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
function rateLimitOf(res: Response, now: number): { resetAt?: number } | undefined {
  const remaining = res.headers.get('x-ratelimit-remaining');
  const retryAfter = res.headers.get('retry-after');
  const limited = res.status === 429 || (res.status === 403 && (remaining === '0' || retryAfter !== null));
  if (!limited) return undefined;
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && retryAfter.trim() !== '') return { resetAt: now + seconds * 1000 };
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return { resetAt: date };
  }
  const reset = Number(res.headers.get('x-ratelimit-reset') ?? NaN);
  return Number.isFinite(reset) && reset > 0 ? { resetAt: reset * 1000 } : {};
}

function toGitHubApiError(err: unknown, url: string, timeoutMs: number): GitHubApiError {
  if (err instanceof GitHubApiError) return err;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new GitHubApiError(`GitHub API ${url} did not answer within ${timeoutMs / 1000}s`, url);
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
  const message = err instanceof Error ? err.message : String(err);
  return new GitHubApiError(`GitHub API ${url} could not be reached: ${cause ?? message}`, url);
}

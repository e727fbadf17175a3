/**
 * The one way agent-manager talks to GitHub's REST API, for skill discovery and commit mode alike:
 * `@octokit/rest` with the retry and throttling plugins, GitHub's required headers
 * (`X-GitHub-Api-Version: 2022-11-28`, a user agent), a timeout and a body cap. Transient failures are
 * retried, 4xx never; writes are spaced as GitHub asks of integrators, and a rate-limited request is
 * retried once only when allowed and the reset is near. Trust boundary: a token goes only to the
 * configured API base URL and never into an error or a log line.
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';

export const GITHUB_API_VERSION = '2022-11-28';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** The longest a rate-limited request waits for its reset before it is retried once. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 10;

export const GitHubOctokit = Octokit.plugin(throttling, retry);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;

export interface OctokitSettings {
  /** The API base URL, e.g. `https://api.github.com` or `https://ghe.example.com/api/v3`. */
  apiUrl: string;
  /** A token (sent as a bearer), or an auth strategy's options with `authStrategy`. */
  auth?: string | Record<string, unknown>;
  authStrategy?: unknown;
  timeoutMs?: number;
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  /** Retries of a transient failure (default 2) and the backoff unit (default 1 s: 1 s, 4 s, 9 s…). */
  retries?: number;
  retryBaseMs?: number;
  /** The least time between two writes (default 1 s, GitHub's guidance); 0 in tests. */
  writeSpacingMs?: number;
  /**
   * The least time between two writes that notify people (opening a pull request, a
   * comment): default 3 s, the throttling plugin's own; 0 in tests.
   */
  notificationSpacingMs?: number;
  /** Wait for a near rate-limit reset and retry once (default false: fail at once with the reset). */
  waitForRateLimit?: boolean;
}

/** Marks a failure of ours (timeout, oversized body) so neither plugin retries it. */
export class GitHubTransportError extends Error {
  // Octokit rethrows a fetch failure named AbortError untouched, so no retry plugin sees it.
  override readonly name = 'AbortError';

  /** Octokit stamps `status = 500` on what it rethrows; the status GitHub really answered is kept here. */
  constructor(message: string, readonly url: string, readonly answeredStatus?: number) {
    super(message);
  }
}

/** An HTTP refusal as Octokit reports it (its RequestError, named `HttpError`), with the response. */
export interface HttpError extends Error {
  status: number;
  response: { headers: Record<string, string | undefined>; data: unknown };
}

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof Error && err.name === 'HttpError' && 'status' in err && typeof err.status === 'number' &&
    'response' in err && typeof err.response === 'object' && err.response !== null;
}

export function createOctokit(settings: OctokitSettings): GitHubOctokit {
  const baseFetch = settings.fetch ?? globalThis.fetch;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const spacing = settings.writeSpacingMs ?? 1000;
  const retryWanted = (retryAfter: number, retryCount: number) =>
    settings.waitForRateLimit === true && retryCount < 1 && retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS;
  const octokit = new GitHubOctokit({
    baseUrl: settings.apiUrl.replace(/\/+$/, ''),
    userAgent: 'agent-manager',
    // A plain token is sent as `Authorization: Bearer`, the scheme GitHub documents for every token kind.
    ...(typeof settings.auth === 'string' ? {} : { auth: settings.auth }),
    ...(settings.authStrategy ? { authStrategy: settings.authStrategy } : {}),
    request: { fetch: cappedFetch(baseFetch, timeoutMs, maxBodyBytes), redirect: 'follow' },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    retry: {
      retries: settings.retries ?? 2, retryAfterBaseValue: settings.retryBaseMs ?? 1000,
      doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451],
    },
    throttle: {
      // Our own write and notification limiters per client: the plugin's defaults are
      // process-wide and fixed (1 s and 3 s), so one client's pull request would hold up
      // another's, and a test could not turn the spacing off.
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacing }),
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: settings.notificationSpacingMs ?? 3000 }),
      onRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
        retryWanted(retryAfter, retryCount),
      onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
        retryWanted(retryAfter, retryCount),
    },
  });
  const token = typeof settings.auth === 'string' ? settings.auth : undefined;
  octokit.hook.before('request', (options) => {
    options.headers['x-github-api-version'] = GITHUB_API_VERSION;
    if (token) options.headers.authorization = `Bearer ${token}`;
  });
  return octokit;
}

/** fetch with a timeout and a body cap; both fail as a GitHubTransportError. */
function cappedFetch(base: typeof fetch, timeoutMs: number, max: number): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } catch (err) {
      if (timeout.aborted) {
        throw new GitHubTransportError(`GitHub API ${url} did not answer within ${timeoutMs / 1000}s`, url);
      }
      throw err;
    }
    const tooLarge = () => new GitHubTransportError(`GitHub API ${url} answered with more than ${max} bytes`, url,
      res.status);
    try {
      if (Number(res.headers.get('content-length') ?? 0) > max) {
        await res.body?.cancel().catch(() => undefined);
        throw tooLarge();
      }
      const chunks: Uint8Array[] = [];
      let total = 0;
      if (res.body) {
        const reader = res.body.getReader();
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
      }
      const body = res.status === 204 || res.status === 205 || res.status === 304 ? null : Buffer.concat(chunks);
      const copy = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      Object.defineProperty(copy, 'url', { value: res.url || url });
      return copy;
    } catch (err) {
      if (err instanceof GitHubTransportError) throw err;
      if (timeout.aborted) {
        throw new GitHubTransportError(`GitHub API ${url} did not answer within ${timeoutMs / 1000}s`, url);
      }
      throw err;
    }
  };
}

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
/** Marks a failure of ours (timeout, oversized body) so neither plugin retries it. */
export class GitHubTransportError extends Error {
    url;
    answeredStatus;
    // Octokit rethrows a fetch failure named AbortError untouched, so no retry plugin sees it.
    name = 'AbortError';
    /** Octokit stamps `status = 500` on what it rethrows; the status GitHub really answered is kept here. */
    constructor(message, url, answeredStatus) {
        super(message);
        this.url = url;
        this.answeredStatus = answeredStatus;
    }
}
export function isHttpError(err) {
    const e = err;
    return err instanceof Error && err.name === 'HttpError' && typeof e?.status === 'number' &&
        typeof e.response === 'object' && e.response !== null;
}
export function createOctokit(settings) {
    const baseFetch = settings.fetch ?? globalThis.fetch;
    const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBodyBytes = settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const spacing = settings.writeSpacingMs ?? 1000;
    const retryWanted = (retryAfter, retryCount) => settings.waitForRateLimit === true && retryCount < 1 && retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS;
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
            onRateLimit: (retryAfter, _options, _octokit, retryCount) => retryWanted(retryAfter, retryCount),
            onSecondaryRateLimit: (retryAfter, _options, _octokit, retryCount) => retryWanted(retryAfter, retryCount),
        },
    });
    const token = typeof settings.auth === 'string' ? settings.auth : undefined;
    octokit.hook.before('request', (options) => {
        options.headers['x-github-api-version'] = GITHUB_API_VERSION;
        if (token)
            options.headers.authorization = `Bearer ${token}`;
    });
    return octokit;
}
/** fetch with a timeout and a body cap; both fail as a GitHubTransportError. */
function cappedFetch(base, timeoutMs, max) {
    return async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const timeout = AbortSignal.timeout(timeoutMs);
        const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
        let res;
        try {
            res = await base(input, { ...init, signal });
        }
        catch (err) {
            if (timeout.aborted) {
                throw new GitHubTransportError(`GitHub API ${url} did not answer within ${timeoutMs / 1000}s`, url);
            }
            throw err;
        }
        const tooLarge = () => new GitHubTransportError(`GitHub API ${url} answered with more than ${max} bytes`, url, res.status);
        try {
            if (Number(res.headers.get('content-length') ?? 0) > max) {
                await res.body?.cancel().catch(() => undefined);
                throw tooLarge();
            }
            const chunks = [];
            let total = 0;
            if (res.body) {
                const reader = res.body.getReader();
                for (;;) {
                    const { done, value } = await reader.read();
                    if (done)
                        break;
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
        }
        catch (err) {
            if (err instanceof GitHubTransportError)
                throw err;
            if (timeout.aborted) {
                throw new GitHubTransportError(`GitHub API ${url} did not answer within ${timeoutMs / 1000}s`, url);
            }
            throw err;
        }
    };
}
//# sourceMappingURL=octokit.js.map
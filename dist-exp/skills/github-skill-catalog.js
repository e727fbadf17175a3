import { invalid, unsupported } from '../core/errors.js';
import { goQuote } from '../core/go-quote.js';
import { silentLogger } from '../log/logger.js';
import { GitHubApiError, GitHubClient } from './github-client.js';
import { notAGitHubRepository, parseGitHubRepository } from './github-repository.js';
import { readSkillRepository } from './repository-reader.js';
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;
/** SKILL.md reads in flight per repository (8 at a time: quick, yet far below GitHub's limit on concurrent
 * requests). */
export const DEFAULT_READ_CONCURRENCY = 8;
/** Repository@ref entries kept; callers can name any repository and ref, so the cache is bounded. */
export const DEFAULT_MAX_CACHE_ENTRIES = 256;
export const DEFAULT_MAX_SKILLS_PER_REPOSITORY = 1000;
/** The longest a rate-limited entry is kept waiting for GitHub's reset. */
const MAX_RATE_LIMIT_HOLD_MS = 60 * 60_000;
/** The SkillCatalog port over the GitHub REST API. */
export class GitHubSkillCatalog {
    config;
    repositories;
    configured;
    client;
    now;
    log;
    ttlMs;
    cache = new Map();
    inflight = new Map();
    /** Throws when a configured repository is not a github.com repository URL (a startup error). */
    constructor(config) {
        this.config = config;
        this.repositories = config.repositories.map((r) => r.trim()).filter(Boolean);
        const seen = new Set();
        this.configured = [];
        for (const url of this.repositories) {
            const repository = parseGitHubRepository(url);
            if (!repository)
                throw new Error(`skill repositories: ${notAGitHubRepository(url)}`);
            if (!seen.has(repository.url))
                this.configured.push(repository);
            seen.add(repository.url);
        }
        this.now = config.now ?? Date.now;
        this.log = config.log ?? silentLogger();
        this.ttlMs = config.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
        this.client = new GitHubClient({
            apiUrl: config.apiUrl ?? DEFAULT_GITHUB_API_URL,
            token: config.token || undefined,
            timeoutMs: config.timeoutMs,
            maxBodyBytes: config.maxBodyBytes,
            fetch: config.fetch,
            retryBaseMs: config.retryBaseMs,
            now: this.now,
        });
    }
    /**
     * The skills of every configured repository, in configured order, or of `repository`
     * alone (configured or not) at `ref` (default: each repository's default branch).
     * Throws 501 when no repositories are configured and 400 for a bad `repository` or
     * `ref`; never for a repository that cannot be read. The returned objects are shared
     * with the cache: callers must not mutate them.
     */
    async list(options, signal) {
        if (this.repositories.length === 0)
            throw unsupported('no skill repositories are configured');
        let targets = this.configured;
        if (options.repository !== undefined && options.repository.trim() !== '') {
            const repository = parseGitHubRepository(options.repository.trim());
            if (!repository)
                throw invalid(notAGitHubRepository(options.repository));
            targets = [repository];
        }
        const ref = options.ref?.trim() || undefined;
        if (ref !== undefined && /\s/.test(ref)) {
            throw invalid(`ref ${goQuote(ref)} contains whitespace; give a branch, tag or commit`);
        }
        const repositories = await abortable(Promise.all(targets.map((target) => this.repositoryAt(target, ref, options.refresh === true))), signal);
        return { repositories, skills: repositories.flatMap((r) => r.skills) };
    }
    /** The cached entry while fresh, else the read in flight, else a new read. */
    repositoryAt(target, ref, refresh) {
        const key = `${target.url}@${ref ?? ''}`;
        const entry = this.cache.get(key);
        if (!refresh && entry && entry.expiresAt > this.now())
            return Promise.resolve(entry.result);
        let pending = this.inflight.get(key);
        if (!pending) {
            pending = this.read(key, target, ref).finally(() => this.inflight.delete(key));
            this.inflight.set(key, pending);
        }
        return pending;
    }
    /** Reads one repository into the cache; never rejects. */
    async read(key, target, ref) {
        const previous = this.cache.get(key)?.lastGood;
        try {
            const result = await readSkillRepository(this.client, target, ref, {
                concurrency: this.config.readConcurrency ?? DEFAULT_READ_CONCURRENCY,
                maxSkills: this.config.maxSkillsPerRepository ?? DEFAULT_MAX_SKILLS_PER_REPOSITORY,
                log: this.log,
                fetchedAt: new Date(this.now()).toISOString(),
            });
            return this.store(key, { result, expiresAt: this.now() + this.ttlMs, lastGood: result });
        }
        catch (err) {
            const failure = err instanceof GitHubApiError ? err : undefined;
            const text = failure?.rateLimit
                ? this.rateLimitText(target, failure.rateLimit.resetAt)
                : this.errorText(target, err);
            this.log.warn({ repoUrl: target.url, ref, reason: text }, 'skill repository unreadable');
            let expiresAt = this.now() + this.ttlMs;
            const resetAt = failure?.rateLimit?.resetAt;
            if (resetAt !== undefined) {
                expiresAt = Math.max(expiresAt, Math.min(resetAt, this.now() + MAX_RATE_LIMIT_HOLD_MS));
            }
            const result = failure?.rateLimit && previous
                ? { ...previous, error: text }
                : {
                    repoUrl: target.url, ...(ref ? { ref } : {}), skills: [], truncated: false, error: text,
                    fetchedAt: new Date(this.now()).toISOString(),
                };
            return this.store(key, { result, expiresAt, lastGood: previous });
        }
    }
    store(key, entry) {
        this.cache.delete(key);
        this.cache.set(key, entry);
        const max = this.config.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES;
        for (const oldest of this.cache.keys()) {
            if (this.cache.size <= max)
                break;
            this.cache.delete(oldest);
        }
        return entry.result;
    }
    rateLimitText(target, resetAt) {
        const when = resetAt !== undefined ? `resets at ${new Date(resetAt).toISOString()}` : 'try again later';
        const hint = this.client.hasToken ? '' : '; configure a GitHub token (GITHUB_TOKEN) for a higher limit';
        return `GitHub API rate limit exceeded for ${target.url}; ${when}${hint}`;
    }
    errorText(target, err) {
        if (!(err instanceof GitHubApiError)) {
            return `reading ${target.url} failed: ${err instanceof Error ? err.message : String(err)}`;
        }
        if (err.status === 404 && !this.client.hasToken) {
            return `${err.message} (the repository, ref or path does not exist, or the repository is private; a private ` +
                `repository needs a GitHub token that can read it)`;
        }
        return err.message;
    }
}
/** `promise`, or the abort reason as soon as `signal` aborts (the work itself goes on). */
function abortable(promise, signal) {
    if (!signal)
        return promise;
    if (signal.aborted)
        return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
}
//# sourceMappingURL=github-skill-catalog.js.map
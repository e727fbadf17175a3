/**
 * `list_skills` over the GitHub REST API: each configured (or named) repository read in parallel and
 * cached per repository and ref. One unreadable repository is its own `error` entry, never a failed
 * call; concurrent reads of one repository share a single flight detached from any caller's
 * cancellation; results, errors included, are cached for the TTL (`refresh` bypasses); when GitHub
 * rate-limits, the last good skills are served with an `error` saying they may be stale until the reset.
 */
import type { Logger } from 'pino';
import { invalid, unsupported } from '../core/errors.js';
import { goQuote } from '../core/go-quote.js';
import type { SkillRepository, SkillsResult } from '../core/types.js';
import { silentLogger } from '../log/logger.js';
import type { SkillCatalog } from '../service/ports.js';
import { GitHubApiError, GitHubClient } from './github-client.js';
import { notAGitHubRepository, parseGitHubRepository, type GitHubRepository } from './github-repository.js';
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

export interface GitHubSkillCatalogConfig {
  /** `https://github.com/<owner>/<repo>` URLs (`--skills-repositories`); empty turns the capability off. */
  repositories: readonly string[];
  /** `--skills-github-api`; GitHub Enterprise uses `https://<host>/api/v3`. */
  apiUrl?: string;
  /** `GITHUB_TOKEN`: raises the rate limit and reads private repositories. */
  token?: string;
  /** `--skills-cache-ttl` in milliseconds. */
  cacheTtlMs?: number;
  readConcurrency?: number;
  maxCacheEntries?: number;
  maxSkillsPerRepository?: number;
  timeoutMs?: number;
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  /** Backoff unit of the retries of a transient GitHub failure (default 1 s). */
  retryBaseMs?: number;
  /** Milliseconds since the epoch (tests move it to expire the cache). */
  now?: () => number;
  log?: Logger;
}

interface CacheEntry {
  result: SkillRepository;
  expiresAt: number;
  /** The last result without an error, served again when GitHub rate-limits a re-read. */
  lastGood?: SkillRepository;
}

/** The SkillCatalog port over the GitHub REST API. */
export class GitHubSkillCatalog implements SkillCatalog {
  readonly repositories: string[];
  private readonly configured: GitHubRepository[];
  private readonly client: GitHubClient;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly ttlMs: number;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inflight = new Map<string, Promise<SkillRepository>>();

  /** Throws when a configured repository is not a github.com repository URL (a startup error). */
  constructor(private readonly config: GitHubSkillCatalogConfig) {
    this.repositories = config.repositories.map((r) => r.trim()).filter(Boolean);
    const seen = new Set<string>();
    this.configured = [];
    for (const url of this.repositories) {
      const repository = parseGitHubRepository(url);
      if (!repository) throw new Error(`skill repositories: ${notAGitHubRepository(url)}`);
      if (!seen.has(repository.url)) this.configured.push(repository);
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
  async list(
    options: { repository?: string; ref?: string; refresh?: boolean }, signal?: AbortSignal,
  ): Promise<SkillsResult> {
    if (this.repositories.length === 0) throw unsupported('no skill repositories are configured');
    let targets = this.configured;
    if (options.repository !== undefined && options.repository.trim() !== '') {
      const repository = parseGitHubRepository(options.repository.trim());
      if (!repository) throw invalid(notAGitHubRepository(options.repository));
      targets = [repository];
    }
    const ref = options.ref?.trim() || undefined;
    if (ref !== undefined && /\s/.test(ref)) {
      throw invalid(`ref ${goQuote(ref)} contains whitespace; give a branch, tag or commit`);
    }
    const repositories = await abortable(
      Promise.all(targets.map((target) => this.repositoryAt(target, ref, options.refresh === true))),
      signal,
    );
    return { repositories, skills: repositories.flatMap((r) => r.skills) };
  }

  /** The cached entry while fresh, else the read in flight, else a new read. */
  private repositoryAt(target: GitHubRepository, ref: string | undefined, refresh: boolean): Promise<SkillRepository> {
    const key = `${target.url}@${ref ?? ''}`;
    const entry = this.cache.get(key);
    if (!refresh && entry && entry.expiresAt > this.now()) return Promise.resolve(entry.result);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.read(key, target, ref).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  /** Reads one repository into the cache; never rejects. */
  private async read(key: string, target: GitHubRepository, ref: string | undefined): Promise<SkillRepository> {
    const previous = this.cache.get(key)?.lastGood;
    try {
      const result = await readSkillRepository(this.client, target, ref, {
        concurrency: this.config.readConcurrency ?? DEFAULT_READ_CONCURRENCY,
        maxSkills: this.config.maxSkillsPerRepository ?? DEFAULT_MAX_SKILLS_PER_REPOSITORY,
        log: this.log,
        fetchedAt: new Date(this.now()).toISOString(),
      });
      return this.store(key, { result, expiresAt: this.now() + this.ttlMs, lastGood: result });
    } catch (err) {
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
      const result: SkillRepository =
        failure?.rateLimit && previous
          ? { ...previous, error: text }
          : {
              repoUrl: target.url, ...(ref ? { ref } : {}), skills: [], truncated: false, error: text,
              fetchedAt: new Date(this.now()).toISOString(),
            };
      return this.store(key, { result, expiresAt, lastGood: previous });
    }
  }

  private store(key: string, entry: CacheEntry): SkillRepository {
    this.cache.delete(key);
    this.cache.set(key, entry);
    const max = this.config.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES;
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= max) break;
      this.cache.delete(oldest);
    }
    return entry.result;
  }

  private rateLimitText(target: GitHubRepository, resetAt: number | undefined): string {
    const when = resetAt !== undefined ? `resets at ${new Date(resetAt).toISOString()}` : 'try again later';
    const hint = this.client.hasToken ? '' : '; configure a GitHub token (GITHUB_TOKEN) for a higher limit';
    return `GitHub API rate limit exceeded for ${target.url}; ${when}${hint}`;
  }

  private errorText(target: GitHubRepository, err: unknown): string {
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

/** Why `signal` aborted: its reason when that is an Error (as AbortSignal's own reasons are), else an Error. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** `promise`, or the abort reason as soon as `signal` aborts (the work itself goes on). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

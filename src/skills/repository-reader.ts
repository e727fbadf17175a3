/**
 * Reading one repository's skills as the portal does: the ref (default branch when none) resolved to a
 * commit (the pin a create would write), its recursive tree, and every `SKILL.md` at that commit, so a
 * listing is one snapshot while the branch moves; a skill is a directory holding a `SKILL.md`. An
 * unreadable file is skipped (`truncated`); a rate-limited read fails the repository read instead, since
 * the whole listing is then incomplete, and the catalog decides what to serve.
 */
import { asObject, objectList } from '../core/json.js';
import type { Logger } from 'pino';
import type { Skill, SkillRepository } from '../core/types.js';
import { mapBounded } from './bounded.js';
import { parseFrontmatter } from './frontmatter.js';
import { GitHubApiError, type GitHubClient } from './github-client.js';
import type { GitHubRepository } from './github-repository.js';

export interface ReadOptions {
  /** SKILL.md reads in flight at once for this repository. */
  concurrency: number;
  /** The most SKILL.md files read; more make the listing `truncated`. */
  maxSkills: number;
  log: Logger;
  /** The RFC 3339 time the listing reports as `fetchedAt`. */
  fetchedAt: string;
}

/**
 * The skills of `repository` at `ref` (the default branch when absent). Throws a
 * `GitHubApiError` when the repository, its tree, or (rate-limited) its files cannot be read.
 */
export async function readSkillRepository(
  client: GitHubClient,
  repository: GitHubRepository,
  ref: string | undefined,
  options: ReadOptions,
): Promise<SkillRepository> {
  const base = `/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}`;
  const at = ref || (await defaultBranch(client, base));
  const commit = await headCommit(client, base, at);
  const treeUrl = `${base}/git/trees/${commit}?recursive=1`;
  const tree = asObject(await client.getJson(treeUrl));
  if (!Array.isArray(tree.tree)) {
    throw new GitHubApiError(`GitHub API ${treeUrl} answered without a tree`, treeUrl);
  }
  const files = objectList(tree.tree).flatMap((e) => (e.type === 'blob' && typeof e.path === 'string' &&
      (e.path === 'SKILL.md' || e.path.endsWith('/SKILL.md')) ? [e.path] : []));
  let truncated = tree.truncated === true;
  if (files.length > options.maxSkills) {
    options.log.warn({ repoUrl: repository.url, found: files.length, read: options.maxSkills },
      'reading only the first SKILL.md files');
    files.length = options.maxSkills;
    truncated = true;
  }

  const read = await mapBounded(files, options.concurrency, async (file): Promise<Skill | undefined> => {
    const contentsUrl = `${base}/contents/${file.split('/').map(encodeURIComponent).join('/')}?ref=${commit}`;
    try {
      return toSkill(repository, at, file, await client.getRaw(contentsUrl));
    } catch (err) {
      if (err instanceof GitHubApiError && err.rateLimit) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      options.log.warn({ repoUrl: repository.url, path: file, ref: at, reason },
        'skipping unreadable SKILL.md');
      return undefined;
    }
  });
  const skills = read.filter((s): s is Skill => s !== undefined);
  if (skills.length < read.length) truncated = true;
  skills.sort(byPathThenName);
  return { repoUrl: repository.url, ref: at, commit, skills, truncated, fetchedAt: options.fetchedAt };
}

/** The commit `ref` (a branch, tag or commit) points at now. */
async function headCommit(client: GitHubClient, base: string, ref: string): Promise<string> {
  const url = `${base}/commits/${ref.split('/').map(encodeURIComponent).join('/')}`;
  const { sha } = asObject(await client.getJson(url));
  if (typeof sha !== 'string' || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
    throw new GitHubApiError(`GitHub API ${url} answered without a commit id`, url);
  }
  return sha;
}

async function defaultBranch(client: GitHubClient, base: string): Promise<string> {
  const branch = asObject(await client.getJson(base)).default_branch;
  return typeof branch === 'string' && branch.trim() ? branch : 'main';
}

/** A skill from its SKILL.md: frontmatter name, else the directory, else the repository name. */
function toSkill(repository: GitHubRepository, ref: string, file: string, text: string): Skill {
  const path = file.slice(0, Math.max(0, file.length - 'SKILL.md'.length)).replace(/\/$/, '');
  const meta = parseFrontmatter(text);
  const name = meta.name?.trim() || path.split('/').pop() || repository.repo;
  return { name, description: meta.description?.trim() ?? '', repoUrl: repository.url, path, ref };
}

/** Plain string order, path first, then name. */
function byPathThenName(a: Skill, b: Skill): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return 0;
}

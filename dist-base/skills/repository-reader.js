import { mapBounded } from './bounded.js';
import { parseFrontmatter } from './frontmatter.js';
import { GitHubApiError } from './github-client.js';
/**
 * The skills of `repository` at `ref` (the default branch when absent). Throws a
 * `GitHubApiError` when the repository, its tree, or (rate-limited) its files cannot be read.
 */
export async function readSkillRepository(client, repository, ref, options) {
    const base = `/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}`;
    const at = ref || (await defaultBranch(client, base));
    const commit = await headCommit(client, base, at);
    const treeUrl = `${base}/git/trees/${commit}?recursive=1`;
    const tree = (await client.getJson(treeUrl));
    if (!tree || !Array.isArray(tree.tree)) {
        throw new GitHubApiError(`GitHub API ${treeUrl} answered without a tree`, treeUrl);
    }
    const files = tree.tree
        .filter((e) => e.type === 'blob' && typeof e.path === 'string' &&
        (e.path === 'SKILL.md' || e.path.endsWith('/SKILL.md')))
        .map((e) => e.path);
    let truncated = tree.truncated === true;
    if (files.length > options.maxSkills) {
        options.log.warn({ repoUrl: repository.url, found: files.length, read: options.maxSkills }, 'reading only the first SKILL.md files');
        files.length = options.maxSkills;
        truncated = true;
    }
    const read = await mapBounded(files, options.concurrency, async (file) => {
        const contentsUrl = `${base}/contents/${file.split('/').map(encodeURIComponent).join('/')}?ref=${commit}`;
        try {
            return toSkill(repository, at, file, await client.getRaw(contentsUrl));
        }
        catch (err) {
            if (err instanceof GitHubApiError && err.rateLimit)
                throw err;
            options.log.warn({ repoUrl: repository.url, path: file, ref: at, reason: err.message }, 'skipping unreadable SKILL.md');
            return undefined;
        }
    });
    const skills = read.filter((s) => s !== undefined);
    if (skills.length < read.length)
        truncated = true;
    skills.sort(byPathThenName);
    return { repoUrl: repository.url, ref: at, commit, skills, truncated, fetchedAt: options.fetchedAt };
}
/** The commit `ref` (a branch, tag or commit) points at now. */
async function headCommit(client, base, ref) {
    const url = `${base}/commits/${ref.split('/').map(encodeURIComponent).join('/')}`;
    const sha = (await client.getJson(url))?.sha;
    if (typeof sha !== 'string' || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
        throw new GitHubApiError(`GitHub API ${url} answered without a commit id`, url);
    }
    return sha;
}
async function defaultBranch(client, base) {
    const meta = (await client.getJson(base));
    const branch = meta?.default_branch;
    return typeof branch === 'string' && branch.trim() ? branch : 'main';
}
/** A skill from its SKILL.md: frontmatter name, else the directory, else the repository name. */
function toSkill(repository, ref, file, text) {
    const path = file.slice(0, Math.max(0, file.length - 'SKILL.md'.length)).replace(/\/$/, '');
    const meta = parseFrontmatter(text);
    const name = meta.name?.trim() || path.split('/').pop() || repository.repo;
    return { name, description: meta.description?.trim() ?? '', repoUrl: repository.url, path, ref };
}
/** Plain string order, path first, then name. */
function byPathThenName(a, b) {
    if (a.path !== b.path)
        return a.path < b.path ? -1 : 1;
    if (a.name !== b.name)
        return a.name < b.name ? -1 : 1;
    return 0;
}
//# sourceMappingURL=repository-reader.js.map
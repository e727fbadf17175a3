/**
 * Which repositories skill discovery reads: github.com repositories named by a URL
 * `https://github.com/<owner>/<repo>` (`.git` and a trailing slash tolerated); anything else is refused
 * before a request. Trust boundary: `repository` is caller input that ends up in API paths sent with the
 * service's token, so owner and repository must be plain GitHub names (never `.` or `..`), and no URL
 * can smuggle a query, an encoded slash or a `..` segment into those paths.
 */
import { goQuote } from '../core/go-quote.js';
/** The URL form discovery accepts (the pattern giantswarm/agent-manager accepts). */
const GITHUB_REPOSITORY = /^https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/;
/** What GitHub allows in owner and repository names. */
const GITHUB_NAME = /^[A-Za-z0-9_.-]+$/;
/** The repository `url` names, or undefined when it is not a github.com repository URL. */
export function parseGitHubRepository(url) {
    const match = GITHUB_REPOSITORY.exec(url);
    if (!match)
        return undefined;
    const owner = match[1] ?? '';
    const repo = match[2] ?? '';
    if (![owner, repo].every((part) => GITHUB_NAME.test(part) && part !== '.' && part !== '..'))
        return undefined;
    return { owner, repo, url: `https://github.com/${owner}/${repo}` };
}
/** The refusal for a URL that is not a github.com repository, saying which form is expected. */
export function notAGitHubRepository(url) {
    return `repository ${goQuote(url)} is not a GitHub repository URL (expected https://github.com/<owner>/<repo>)`;
}
//# sourceMappingURL=github-repository.js.map
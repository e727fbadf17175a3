/**
 * Commit mode's GitOps host from the configuration: always the GitHub host (a caller's
 * X-GitHub-Token works with nothing else configured), with the installation's GitHub App
 * (its private key read once, at startup) or token when configured. An unreadable or
 * malformed key stops startup (exit 2) naming the flag, instead of failing on the first
 * pull request.
 */
import { readFile } from 'node:fs/promises';
import { GitHubGitOpsHost } from './github-host.js';
/**
 * `fetch` is how the host reaches GitHub: the service passes its outbound fetch (the proxy
 * settings, the outbound metrics with `peer="github"`, client spans), as for every other
 * outbound client.
 */
export async function openGitOpsHost(config, fetch, pacing = {}) {
    let app;
    if (config.appId) {
        let privateKey;
        try {
            privateKey = await readFile(config.appPrivateKeyFile, 'utf8');
        }
        catch (err) {
            throw startupError(`--github-app-private-key-file ${config.appPrivateKeyFile}: cannot be read ` +
                `(${err.code ?? 'error'})`);
        }
        if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(privateKey)) {
            throw startupError(`--github-app-private-key-file ${config.appPrivateKeyFile}: not a PEM private key (download ` +
                `the key from the GitHub App's settings)`);
        }
        app = { appId: config.appId, privateKey };
    }
    return new GitHubGitOpsHost({
        apiUrl: config.githubApiUrl, app, token: config.githubToken || undefined,
        client: { ...pacing, ...(fetch ? { fetch } : {}) },
    });
}
function startupError(message) {
    return Object.assign(new Error(message), { exitCode: 2 });
}
//# sourceMappingURL=open-gitops.js.map
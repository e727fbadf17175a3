/**
 * Commit mode's GitOps host from the configuration: always the GitHub host (a caller's
 * X-GitHub-Token works with nothing else configured), with the installation's GitHub App
 * (its private key read once, at startup) or token when configured. An unreadable or
 * malformed key stops startup (exit 2) naming the flag, instead of failing on the first
 * pull request.
 */
import { readFile } from 'node:fs/promises';
import { asObject, optionalString } from '../core/json.js';
import type { GitOpsConfig } from '../config/app-config.js';
import type { OctokitSettings } from './octokit.js';
import { GitHubGitOpsHost } from './commit-host.js';

/** How far apart writes go and how long a retry waits (tests turn both down; the defaults are GitHub's). */
export type GitHubPacing = Pick<OctokitSettings, 'writeSpacingMs' | 'notificationSpacingMs' | 'retryBaseMs'>;

/**
 * `fetch` is how the host reaches GitHub: the service passes its outbound fetch (the proxy
 * settings, the outbound metrics with `peer="github"`, client spans), as for every other
 * outbound client.
 */
export async function openGitOpsHost(
  config: GitOpsConfig, fetch?: typeof globalThis.fetch, pacing: GitHubPacing = {},
): Promise<GitHubGitOpsHost> {
  let app: { appId: string; privateKey: string } | undefined;
  if (config.appId) {
    let privateKey: string;
    try {
      privateKey = await readFile(config.appPrivateKeyFile, 'utf8');
    } catch (err) {
      throw startupError(`--github-app-private-key-file ${config.appPrivateKeyFile}: cannot be read ` +
        `(${optionalString(asObject(err).code) ?? 'error'})`);
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

function startupError(message: string): Error {
  return Object.assign(new Error(message), { exitCode: 2 });
}

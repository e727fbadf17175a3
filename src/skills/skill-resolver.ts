/**
 * The SkillResolver port over its two adapters: git skills through the GitHub REST API
 * (github-commit-resolver.ts), OCI skills through their registries (oci-digest-resolver.ts).
 * The composition root builds it with the outbound fetch (proxy settings, metrics, spans),
 * the skills client's GitHub settings and the chart registry's credentials.
 */
import { parseOciReference } from '../chart/oci-reference.js';
import { credentialSource } from '../chart/registry-credentials.js';
import type { AppConfig } from '../config/index.js';
import type { SkillResolver } from '../service/ports.js';
import { DEFAULT_GITHUB_API_URL } from './github-skill-catalog.js';
import { GitHubClient, type GitHubClientConfig } from './github-client.js';
import { GitHubCommitResolver } from './github-commit-resolver.js';
import { OciDigestResolver, type OciDigestResolverOptions } from './oci-digest-resolver.js';

export interface SkillResolverConfig {
  github: GitHubClientConfig;
  registry: OciDigestResolverOptions;
}

export function openSkillResolver(config: SkillResolverConfig): SkillResolver {
  const git = new GitHubCommitResolver(new GitHubClient({ ...config.github, token: config.github.token || undefined }));
  const oci = new OciDigestResolver(config.registry);
  return {
    gitCommit: (url, ref, signal) => git.gitCommit(url, ref, signal),
    ociDigest: (reference, signal) => oci.ociDigest(reference, signal),
  };
}

/**
 * The resolver of a served process: `--skills-github-api` with `GITHUB_TOKEN`, and the chart
 * registry's credentials for skills on that registry (a broken credential configuration has
 * already stopped start-up with the flag named, when the chart source opened).
 */
export function skillResolverFor(config: Pick<AppConfig, 'chart' | 'skills'>,
  fetchFor: (peer: 'github' | 'registry') => typeof fetch): SkillResolver {
  const registry = parseOciReference(config.chart.ociUrl).registry;
  const source = credentialSource(config.chart.auth, registry);
  return openSkillResolver({
    github: { apiUrl: config.skills.githubApi || DEFAULT_GITHUB_API_URL, token: config.skills.githubToken,
      fetch: fetchFor('github') },
    registry: { fetch: fetchFor('registry'), credentials: source ? { registry, source } : undefined },
  });
}

/**
 * The SkillResolver port over its two adapters: git skills through the GitHub REST API
 * (github-commit-resolver.ts), OCI skills through their registries (oci-digest-resolver.ts).
 * The composition root builds it with the outbound fetch (proxy settings, metrics, spans)
 * and the skills client's GitHub settings.
 */
import type { SkillResolver } from '../service/ports.js';
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

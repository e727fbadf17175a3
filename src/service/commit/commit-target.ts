/**
 * Where a commit-mode write goes: a GitOps-owned release (labelled by its Flux Kustomization) is changed
 * where it is defined, that Kustomization's `spec.path` in its GitRepository's `spec.url` and branch; a
 * new agent goes where the Kustomization applying its namespace's chart source reads, unless the
 * request names a place; anything else goes where the request says, else the installation's
 * `--gitops-repository`, `--gitops-branch` and `--gitops-path`.
 */
import { invalid } from '../../core/errors.js';
import { normaliseDirectory } from '../../core/commit/repo-paths.js';
import { parseRepositoryName } from '../../core/commit/refs.js';
import type { CommitOptions } from '../../core/types.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort, RepoRef } from '../ports.js';
import { KUSTOMIZATION_LABEL } from '../reads/read-model.js';
import { asObject, isJsonObject, optionalString } from '../../core/json.js';

export const KUSTOMIZATION_NAMESPACE_LABEL = 'kustomize.toolkit.fluxcd.io/namespace';
/** Flux's default when a GitRepository names no ref. */
const FLUX_DEFAULT_BRANCH = 'master';

export interface CommitTarget {
  repository: RepoRef;
  base: string;
  directory: string;
  /** The Kustomization applying the directory, when the release is GitOps-owned. */
  kustomization?: { namespace: string; name: string; prune: boolean; targetNamespace?: string };
}

export const repositoryText = (r: RepoRef) => `${r.owner}/${r.name}`;

/** `owner/name` as given by a person, or the 400 that shows the form. */
export function parseRepository(value: string, from: string): RepoRef {
  const parsed = parseRepositoryName(value.trim());
  if (typeof parsed === 'string') {
    throw invalid(`${from} ${JSON.stringify(value)} is not a GitHub repository: ${parsed}`);
  }
  return parsed;
}

/**
 * The GitHub repository a GitRepository URL names: `https://<host>/<owner>/<name>(.git)`
 * or `ssh://git@<host>/<owner>/<name>(.git)`, on any host (github.com or an Enterprise
 * server, whose API is `--github-api-url`).
 */
export function repositoryOfUrl(url: string): RepoRef | undefined {
  const match = /^(?:https?|ssh):\/\/(?:[^@/]+@)?[^/]+(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.trim());
  if (!match) return undefined;
  try {
    return parseRepository(`${match[1]}/${match[2]}`, 'GitRepository URL');
  } catch {
    return undefined;
  }
}

/** The Kustomization that applied `release`, or undefined when the release is not GitOps-owned. */
export function kustomizationRef(release: KubeObject | undefined): { namespace: string; name: string } | undefined {
  if (!release) return undefined;
  const labels = release.metadata.labels ?? {};
  const name = labels[KUSTOMIZATION_LABEL];
  if (!name) return undefined;
  return { name, namespace: labels[KUSTOMIZATION_NAMESPACE_LABEL] || release.metadata.namespace || '' };
}

/**
 * Where the write goes; 400 when nothing names a repository or the Kustomization cannot be
 * followed. `source` is the namespace's chart source (OCIRepository), for a new agent: when
 * a Kustomization applies it, the agent belongs where that Kustomization reads, unless
 * the request names another repository, branch or path (then the request's win, each
 * filled from the Kustomization's where it names none).
 */
export async function commitTarget(
  env: OperationEnv, kube: KubePort, release: KubeObject | undefined, options: CommitOptions, source?: KubeObject,
): Promise<CommitTarget> {
  const ref = kustomizationRef(release);
  if (ref) return fromKustomization(env, kube, ref, options, true);
  const sourceRef = release ? undefined : kustomizationRef(source);
  if (sourceRef) return besideSource(env, kube, sourceRef, options);
  const defaults = env.settings.gitops;
  const repository = optionalString(options.repository) ?? defaults?.repository;
  if (!repository) {
    throw invalid('commit mode needs a GitOps repository: pass repository (owner/name), branch and path, or ' +
      'configure --gitops-repository');
  }
  const directory = normaliseDirectory(options.path ?? defaults?.path);
  if (directory === undefined) {
    throw invalid(`path ${JSON.stringify(options.path)} leaves the repository; give a directory below its root`);
  }
  return {
    repository: parseRepository(repository, options.repository ? 'repository' : '--gitops-repository'),
    base: optionalString(options.branch) ?? defaults?.branch ?? 'main',
    directory,
  };
}

/**
 * The reference a GitRepository follows when it is not a branch, as Flux ranks them
 * (`commit`, then `name`, `semver`, `tag`; `branch` only when none of these is set), or
 * undefined when it follows a branch.
 */
function pinnedRef(ref: Record<string, unknown> | undefined): string | undefined {
  for (const key of ['commit', 'name', 'semver', 'tag'] as const) {
    const value = optionalString(ref?.[key]);
    if (value) return `${key} ${value}`;
  }
  return undefined;
}

/** The target of a new agent whose namespace's chart source a Kustomization applies. */
async function besideSource(
  env: OperationEnv, kube: KubePort, ref: { namespace: string; name: string }, options: CommitOptions,
): Promise<CommitTarget> {
  // A request that names the whole place needs nothing from the Kustomization (which may not be followable).
  const [namedRepository, namedBranch] = [optionalString(options.repository), optionalString(options.branch)];
  if (namedRepository && namedBranch && options.path !== undefined) {
    const directory = normaliseDirectory(options.path);
    if (directory === undefined) {
      throw invalid(`path ${JSON.stringify(options.path)} leaves the repository; give a directory below its root`);
    }
    return { repository: parseRepository(namedRepository, 'repository'), base: namedBranch, directory };
  }
  const target = await fromKustomization(env, kube, ref, options, false);
  const asked = optionalString(options.repository);
  const repository = asked ? parseRepository(asked, 'repository') : target.repository;
  const base = optionalString(options.branch) ?? target.base;
  const directory = options.path === undefined ? target.directory : normaliseDirectory(options.path);
  if (directory === undefined) {
    throw invalid(`path ${JSON.stringify(options.path)} leaves the repository; give a directory below its root`);
  }
  const same = repositoryText(repository).toLowerCase() === repositoryText(target.repository).toLowerCase()
    && base === target.base && directory === target.directory;
  return same ? target : { repository, base, directory };
}

async function fromKustomization(
  env: OperationEnv, kube: KubePort, ref: { namespace: string; name: string }, options: CommitOptions, strict: boolean,
): Promise<CommitTarget> {
  const ks = await kube.get(env.types.kustomization, ref.namespace, ref.name);
  const where = `Flux Kustomization ${ref.namespace}/${ref.name}`;
  if (!ks) throw invalid(`the release is applied by ${where}, which cannot be read (it does not exist, or ` +
    `agent-manager may not get kustomizations there)`);
  const spec = asObject(ks.spec);
  const source = asObject(spec.sourceRef);
  const sourceName = source.name;
  if (source.kind !== 'GitRepository' || typeof sourceName !== 'string') {
    const named = optionalString(source.kind) ? `${String(source.kind)} ${optionalString(sourceName) ?? '(unnamed)'}`
      : 'a source of no kind';
    throw invalid(`${where} applies from ${named}, not a GitRepository; commit mode writes only to git`);
  }
  const sourceNs = optionalString(source.namespace) ?? ref.namespace;
  const repo = await kube.get(env.types.gitRepository, sourceNs, sourceName);
  if (!repo) throw invalid(`${where} applies from GitRepository ${sourceNs}/${sourceName}, which cannot be read`);
  const repoSpec = asObject(repo.spec);
  const repository = typeof repoSpec.url === 'string' ? repositoryOfUrl(repoSpec.url) : undefined;
  if (!repository) throw invalid(`GitRepository ${sourceNs}/${sourceName} has URL ${JSON.stringify(repoSpec.url)}, ` +
    `which names no GitHub repository`);
  const directory = normaliseDirectory(optionalString(spec.path)) ?? '';
  const gitRef = isJsonObject(repoSpec.ref) ? repoSpec.ref : undefined;
  const pinned = pinnedRef(gitRef);
  let base = optionalString(gitRef?.branch) ?? FLUX_DEFAULT_BRANCH;
  if (pinned) {
    // Flux follows the pinned reference, not a branch: a pull request's base is the caller's to name.
    const branch = optionalString(options.branch);
    if (!branch) {
      throw invalid(`${where} applies from GitRepository ${sourceNs}/${sourceName}, which follows ${pinned} rather ` +
        `than a branch, so a merged change is applied only once that reference moves; pass branch to name the branch ` +
        `to propose the change to`);
    }
    base = branch;
  }
  const target: CommitTarget = {
    repository, base, directory,
    kustomization: {
      ...ref, prune: spec.prune === true,
      ...(optionalString(spec.targetNamespace) ? { targetNamespace: optionalString(spec.targetNamespace) } : {}),
    },
  };
  if (!strict) return target;
  // The release lives where Flux applies it from; a request that points elsewhere is a mistake.
  const given = {
    repository: optionalString(options.repository), branch: optionalString(options.branch), path: options.path,
  };
  if ((given.repository && given.repository !== repositoryText(repository))
    || (given.branch && given.branch !== target.base)
    || (given.path !== undefined && normaliseDirectory(given.path) !== directory)) {
    throw invalid(`the release is applied by ${where} from ${repositoryText(repository)}@${target.base} path ` +
      `${directory || '/'}; omit repository, branch and path, or give those`);
  }
  return target;
}

/**
 * Who may have commit mode propose a change, asked before the repository is read. The person must be
 * allowed to make the change live (an access review as or about them), else a 403 in the API server's
 * terms. The installation's credential writes only where the platform points it (a repository a
 * GitRepository names, `--gitops-repository`, `--gitops-repositories`); anywhere else needs the caller's
 * own `X-GitHub-Token`.
 */
import { forbidden, isAppError, unauthenticated } from '../../core/errors.js';
import { callerName, type RequestContext } from '../../identity/caller.js';
import type { CommitOperation } from '../../core/types.js';
import { asObject } from '../../core/json.js';
import { repositoryOfUrl, repositoryText, type CommitTarget } from './commit-target.js';
import type { OperationEnv } from '../operation-env.js';
import type { AccessAttributes, KubePort } from '../ports.js';

const VERB: Record<CommitOperation, AccessAttributes['verb']> =
  { create: 'create', update: 'update', rollback: 'update', delete: 'delete' };

/** The 403 when the caller may not make the change live; nothing when they may (or nobody is asking). */
export async function checkCallerMayChange(
  env: OperationEnv, ctx: RequestContext, operation: CommitOperation, namespace: string, name: string,
): Promise<void> {
  const provider = env.deps.kube;
  const asCaller = provider.identity === 'caller';
  // Without OAuth there is no person to ask about: the ServiceAccount's own RBAC is the rule.
  if (!asCaller && !env.settings.gitops?.reviewCallers) return;
  if (!provider.reviewAccess) {
    throw forbidden('commit mode cannot ask Kubernetes whether the caller may make this change, so it '
      + 'proposes nothing');
  }
  if (!asCaller && !ctx.caller) {
    throw unauthenticated('commit mode needs the caller\'s identity to ask Kubernetes whether they may '
      + 'make this change');
  }
  const { group, version, resource } = env.types.helmRelease;
  const attributes: AccessAttributes = { verb: VERB[operation], group, version, resource, namespace,
    ...(operation === 'create' ? {} : { name }) };
  const answer = await provider.reviewAccess(ctx, attributes);
  if (answer.allowed) return;
  const who = callerName(ctx.caller);
  const subject = who ? `User "${who}"` : 'the caller';
  const target = operation === 'create' ? `${resource}.${group}` : `${resource}.${group} "${name}"`;
  throw forbidden(
    `${target} is forbidden: ${subject} cannot ${attributes.verb} resource "${resource}" in API group "${group}" in `
    + `the namespace "${namespace}"${answer.reason ? `: ${answer.reason}` : ''}; commit mode proposes only a change `
    + `the caller may make live, and nothing was pushed`,
  );
}

const key = (text: string) => text.toLowerCase();

/** The 403 when the installation's credential may not write to the target's repository. */
export async function checkRepositoryAllowed(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, target: CommitTarget,
): Promise<void> {
  // The caller's own token writes only where GitHub lets the caller write.
  if (ctx.githubToken) return;
  // A followed Kustomization's GitRepository is a repository the cluster points at.
  if (target.kustomization) return;
  const wanted = key(repositoryText(target.repository));
  const allowed = new Map<string, string>();
  const add = (text: string | undefined) => { if (text) allowed.set(key(text), text); };
  add(env.settings.gitops?.repository);
  for (const r of env.settings.gitops?.repositories ?? []) add(r);
  if (allowed.has(wanted)) return;
  for (const r of await clusterRepositories(env, kube)) add(r);
  if (allowed.has(wanted)) return;
  const listed = [...allowed.values()].sort();
  throw forbidden(
    `the installation's GitHub credential opens pull requests only in the repositories the platform chose `
    + `(${listed.length > 0 ? listed.join(', ') : 'none'}), and ${repositoryText(target.repository)} is not one of `
    + `them; send your own GitHub token in X-GitHub-Token to propose there, or have it listed in --gitops-repositories`,
  );
}

/**
 * The repositories the cluster's GitRepositories name: all of them when this identity may
 * list them across namespaces, else those of the managed namespaces (a namespace that
 * cannot be listed adds none, so a refusal only narrows what is allowed).
 */
async function clusterRepositories(env: OperationEnv, kube: KubePort): Promise<string[]> {
  const none = (err: unknown) => {
    if (isAppError(err)) return undefined;
    throw err;
  };
  let repos = await kube.list(env.types.gitRepository, '').catch(none);
  if (!repos) {
    const lists = await Promise.all(
      env.settings.namespaces.managed.map((ns) => kube.list(env.types.gitRepository, ns).catch(none)),
    );
    repos = lists.flatMap((l) => l ?? []);
  }
  return repos.flatMap((repo) => {
    const url = asObject(repo.spec).url;
    const ref = typeof url === 'string' ? repositoryOfUrl(url) : undefined;
    return ref ? [repositoryText(ref)] : [];
  });
}

/**
 * The apply-mode 409 for a GitOps-owned release, extended with what commit mode would do
 * instead: the repository, branch and file it would change. Best effort: the refusal is
 * always returned; the hint says as much as could be found out (the file needs a read of
 * the repository, so it is named only when commit mode can run for this request).
 */
import { AppError } from '../../core/errors.js';
import { locateRelease } from '../../core/commit/commit-plan.js';
import type { RequestContext } from '../../identity/caller.js';
import { planInput } from './propose.js';
import { commitTarget, kustomizationRef, repositoryText } from './commit-target.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';

export async function withCommitHint(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, release: KubeObject, refusal: AppError,
): Promise<AppError> {
  if (!kustomizationRef(release)) return refusal;
  const namespace = release.metadata.namespace ?? '';
  const name = release.metadata.name;
  let hint: string;
  try {
    const target = await commitTarget(env, kube, release, {});
    const where = `${repositoryText(target.repository)}@${target.base}`;
    let file = `the file under ${target.directory || '/'} that defines it`;
    const host = env.deps.gitops;
    if (host && (host.installation || ctx.githubToken)) {
      const snapshot = await host.read(ctx, target.repository, target.base, target.directory).catch(() => undefined);
      const hits = snapshot ? locateRelease(planInput(target, snapshot.files, namespace, name)) : [];
      if (hits.length > 0) file = hits.map((h) => h.path).join(' and ');
      hint = ` With mode "commit", agent-manager would open a pull request against ${where} changing ${file}.`;
    } else {
      hint = ` With mode "commit" (not configured here: --github-app-id or --gitops-github-token), agent-manager ` +
        `would open a pull request against ${where} changing ${file}.`;
    }
  } catch {
    return refusal;
  }
  // The refusal's text is kept as it is (clients compare it); the hint follows as a sentence of its own.
  const detail = /[.!?]$/.test(refusal.detail) ? refusal.detail : `${refusal.detail}.`;
  return new AppError(refusal.code, `${detail}${hint}`, { cause: refusal });
}

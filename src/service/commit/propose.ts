/**
 * Commit mode's write: the change an apply would make, proposed as a pull request in the GitOps
 * repository instead, after every apply check has run: who may propose (commit-access.ts), the target,
 * the repository read, the plan on git's document (core/commit/commit-plan.ts), then, unless a dry run, one
 * commit with a `Requested-by:` trailer on a new `agent-manager/<operation>-<ns>-<name>-<id>` branch and
 * a conventional-commit titled pull request (docs/gitops.md "The pull request"). A base that moved is
 * planned again (three attempts), so no pull request starts from a stale base; one that keeps moving is 409.
 */
import { randomUUID } from 'node:crypto';
import { conflict, invalid, unsupported } from '../../core/errors.js';
import type { CommitPlan, FileChange, PlanInput } from '../../core/commit/commit-plan.js';
import { branchViolation, parseRepositoryName, pathViolation } from '../../core/commit/refs.js';
import type { CommitInfo, CommitOperation, CommitOptions } from '../../core/types.js';
import { callerName, type RequestContext } from '../../identity/caller.js';
import { checkCallerMayChange, checkRepositoryAllowed } from './commit-access.js';
import { commitTarget, kustomizationRef, repositoryText, type CommitTarget } from './commit-target.js';
import type { OperationEnv } from '../operation-env.js';
import type { GitOpsHost, KubeObject, KubePort, ResolvedSchema } from '../ports.js';

export interface CommitRequest {
  operation: CommitOperation;
  namespace: string;
  name: string;
  /** The live release, when there is one (it names the Kustomization of a GitOps-owned agent). */
  release?: KubeObject;
  /** A create's: the namespace's chart source (the Kustomization applying it says where the agent goes). */
  source?: KubeObject;
  options: CommitOptions;
  /** For a rollback, the revision whose values are proposed. */
  rolledBackTo?: number;
  /** The schema the values were validated against; absent for a delete. */
  schema?: ResolvedSchema;
  plan(input: PlanInput): CommitPlan;
}

const ATTEMPTS = 3;

export const NOT_CONFIGURED =
  'commit mode is not configured: set --github-app-id with --github-app-private-key-file, or --gitops-github-token ' +
  '(GITOPS_GITHUB_TOKEN), or send the caller\'s GitHub token in X-GitHub-Token';

/**
 * The commit-only options are refused in apply mode instead of being ignored, so a caller
 * who meant to propose a change never writes to the cluster by leaving out `mode`.
 */
export function checkCommitOptions(options: CommitOptions): void {
  if (options.mode === 'commit') {
    checkCommitValues(options);
    return;
  }
  const given = (['repository', 'branch', 'path'] as const).filter((k) => options[k] !== undefined);
  if (given.length > 0) {
    throw invalid(`${given.join(', ')} ${given.length > 1 ? 'apply' : 'applies'} only with mode "commit"; pass mode ` +
      `"commit" to open a pull request`);
  }
}

/**
 * `repository`, `branch` and `path` as given, checked before anything is read: a value
 * git or GitHub would read differently from the person (a control character, `..`, a
 * `.git` segment, a malformed owner) is a 400 naming the rule, and nothing is read or sent.
 */
export function checkCommitValues(options: Pick<CommitOptions, 'repository' | 'branch' | 'path'>): void {
  const { repository, branch, path } = options;
  if (typeof repository === 'string' && repository.trim() !== '') {
    const parsed = parseRepositoryName(repository);
    if (typeof parsed === 'string') throw invalid(`repository ${JSON.stringify(repository)}: ${parsed}`);
  }
  if (typeof branch === 'string' && branch !== '') {
    const problem = branchViolation(branch);
    if (problem) throw invalid(`branch ${JSON.stringify(branch)}: ${problem}`);
  }
  if (typeof path === 'string') {
    const problem = pathViolation(path);
    if (problem) throw invalid(`path ${JSON.stringify(path)}: ${problem}`);
  }
}

/** The host, or the 501 naming the flags when commit mode cannot run for this request. */
export function gitopsHost(env: OperationEnv, ctx: RequestContext): GitOpsHost {
  const host = env.deps.gitops;
  if (!host || (!host.installation && !ctx.githubToken)) throw unsupported(NOT_CONFIGURED);
  return host;
}

export function commitTitle(
  operation: CommitOperation, namespace: string, name: string, rolledBackTo?: number,
): string {
  switch (operation) {
    case 'create': return `feat(agents): add agent ${name} in ${namespace}`;
    case 'update': return `chore(agents): update agent ${name} in ${namespace}`;
    case 'delete': return `feat(agents): remove agent ${name} in ${namespace}`;
    case 'rollback': return `chore(agents): roll back agent ${name} in ` +
      `${namespace}${rolledBackTo === undefined ? '' : ` to revision ${rolledBackTo}`}`;
  }
}

/** What the pull request's body says agent-manager proposes. */
function proposal(request: CommitRequest): string {
  const agent = `agent \`${request.name}\` in namespace \`${request.namespace}\``;
  switch (request.operation) {
    case 'create': return `add ${agent}`;
    case 'update': return `update ${agent}`;
    case 'delete': return `remove ${agent}`;
    case 'rollback': return `roll back ${agent} to the values of its revision ${request.rolledBackTo}`;
  }
}

export function planInput(
  target: CommitTarget, files: Record<string, string>, namespace: string, name: string, release?: KubeObject,
): PlanInput {
  const input: PlanInput = {
    files, directory: target.directory, namespace, name, where: `${repositoryText(target.repository)}@${target.base}`,
  };
  // A release Flux applied must be defined in git: it is never laid out a second time.
  const owner = kustomizationRef(release);
  if (owner && target.kustomization) input.ownedBy = `${owner.namespace}/${owner.name}`;
  if (target.kustomization) {
    input.prune = target.kustomization.prune;
    if (target.kustomization.targetNamespace) input.targetNamespace = target.kustomization.targetNamespace;
  }
  return input;
}

export async function commitChange(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, request: CommitRequest,
): Promise<CommitInfo> {
  const host = gitopsHost(env, ctx);
  const { operation, namespace, name } = request;
  // Who may propose, and where the installation's credential may write: asked before anything is read.
  await checkCallerMayChange(env, ctx, operation, namespace, name);
  const target = await commitTarget(env, kube, request.release, request.options, request.source);
  await checkRepositoryAllowed(env, ctx, kube, target);
  const branch = `agent-manager/${operation}-${namespace}-${name}-${randomUUID().slice(0, 8)}`;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const snapshot = await host.read(ctx, target.repository, target.base, target.directory);
    const plan = request.plan(planInput(target, snapshot.files, namespace, name, request.release));
    const info: CommitInfo = {
      repository: repositoryText(target.repository), base: target.base, branch, directory: target.directory,
      files: plan.files.map((f) =>
        request.options.dryRun && f.content !== undefined ? f : { path: f.path, action: f.action },
      ),
    };
    if (target.kustomization) info.kustomization = `${target.kustomization.namespace}/${target.kustomization.name}`;
    if (plan.liveSteps) info.liveSteps = plan.liveSteps;
    const changes = plan.files.filter((f) => f.action !== 'unchanged').map(commitChangeOf);
    if (request.options.dryRun || changes.length === 0) return info;
    const title = commitTitle(operation, namespace, name, request.rolledBackTo);
    const requestedBy = callerName(ctx.caller) ?? 'agent-manager service account';
    const listed = plan.files.filter((f) => f.action !== 'unchanged').map((f) => `${f.action} ${f.path}`).join('\n');
    const outcome = await host.propose(ctx, {
      repository: target.repository, base: target.base, baseCommit: snapshot.commit, branch, title,
      message: `${title}\n\n${listed}\n\nRequested-by: ${requestedBy}\n`,
      body: prBody(request, info, requestedBy, target, plan.drift), changes,
    });
    if (outcome.moved) {
      ctx.log.info({ repository: info.repository, base: target.base, attempt },
        'the base branch moved while writing; planning again');
      continue;
    }
    return { ...info, pullRequest: outcome.pullRequest, number: outcome.number, commit: outcome.commit };
  }
  throw conflict(`the base branch ${target.base} of ${repositoryText(target.repository)} moved ${ATTEMPTS} times ` +
    `while the change was being written; retry`);
}

/** A planned file as the commit writes it: its new content, or null to remove it. */
function commitChangeOf(f: FileChange): { path: string; content: string | null } {
  if (f.action === 'remove') return { path: f.path, content: null };
  // The plan gives every added or updated file its content (core/commit/commit-plan.ts ChangeSet.changes).
  if (f.content === undefined) throw new Error(`the plan ${f.action}s ${f.path} without its content`);
  return { path: f.path, content: f.content };
}

function prBody(
  request: CommitRequest, info: CommitInfo, requestedBy: string, target: CommitTarget, drift?: string[],
): string {
  const lines = [
    `agent-manager proposes to ${proposal(request)}, requested by ${requestedBy}.`,
    '',
    '### Changed files',
    ...info.files.filter((f) => f.action !== 'unchanged').map((f) => `- \`${f.path}\` (${f.action})`),
    '',
    '### Validation',
    request.schema
      ? `The values pass the agent chart's values.schema.json of chart version ${request.schema.version} (schema ` +
        `from the ${request.schema.source} source).`
      : 'Nothing to validate: the change removes the agent.',
  ];
  if (target.kustomization) {
    lines.push('', `Applied by Flux Kustomization \`${info.kustomization}\` (prune: ${target.kustomization.prune}).`);
  }
  if (drift && drift.length > 0) {
    lines.push('', '### Drift', 'The live release differs from this repository at these value paths; the change is ' +
      'based on the repository\'s values, and merging it makes ' +
      'Flux apply them:', '', ...drift.map((p) => `- \`${p}\``));
  }
  if (info.liveSteps) {
    lines.push('', '### After the merge', 'Flux will not delete these from the cluster; run by hand:', '', '```sh',
      ...info.liveSteps, '```');
  }
  return `${lines.join('\n')}\n`;
}

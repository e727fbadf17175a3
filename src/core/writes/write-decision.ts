/**
 * What the writes' decisions share. A decision is a pure function of the facts the reads gathered; its
 * refusal carries the AppError the operation throws (the code and text clients compare), so the service
 * only acts on it. Ownership: a release a Flux Kustomization applies lives in git, a suspended one is not
 * acted on by Flux, and a bare Agent CR has no release to write to; each is a 409 that says what to do
 * instead, and `force` overrides the first two. In commit mode neither applies: the change goes to git.
 */
import { conflict, type AppError } from '../errors.js';
import type { ReleaseVersions } from './precondition-rules.js';

/**
 * A write refused: nothing is written, `error` is thrown as it is. `commitHint`: the refusal is a GitOps-owned
 * or suspended release's 409, which the service extends with what commit mode would change instead.
 */
export interface Refuse {
  readonly kind: 'refuse';
  readonly error: AppError;
  readonly commitHint?: true;
}

export const refuse = (error: AppError): Refuse => ({ kind: 'refuse', error });

/** What the ownership and precondition rules read of an agent's HelmRelease. */
export interface ReleaseFacts extends ReleaseVersions {
  /** `namespace/name` as the release's metadata has them, for the texts. */
  ref: string;
  /** The Flux Kustomization label's value when the label is there (even empty): the release is GitOps-owned. */
  kustomization?: string;
  /** `spec.suspend` is true. */
  suspended: boolean;
}

export function bareAgentConflict(namespace: string, name: string): AppError {
  return conflict(
    `Agent ${namespace}/${name} is a bare CR with no HelmRelease behind it; agent-manager only writes HelmRelease ` +
    `values (recreate it with create_agent, or delete it with force)`,
  );
}

/** The 409 for a GitOps-owned or suspended release without force, else undefined (commit mode: undefined). */
export function ownershipConflict(release: ReleaseFacts, force: boolean, commit = false): AppError | undefined {
  if (force || commit) return undefined;
  if (release.kustomization !== undefined) {
    return conflict(
      `HelmRelease ${release.ref} is applied by Flux Kustomization "${release.kustomization}": its desired state ` +
      `lives in git, a live write would be undone. Change it in the GitOps repository, or pass force to write anyway`,
    );
  }
  if (release.suspended) {
    return conflict(`HelmRelease ${release.ref} is suspended: Flux will not act on a change. Resume it ` +
      `first, or pass force`);
  }
  return undefined;
}

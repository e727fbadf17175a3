/**
 * Who may write an agent here. A release applied by a Flux Kustomization lives
 * in git, a suspended one is not acted on by Flux, and a bare Agent CR has no release
 * to write to: each is a 409 that says what to do instead, and `force` overrides the
 * first two (a forced write to a GitOps-owned release proceeds).
 */
import { conflict } from '../../core/errors.js';
import type { AgentObjects } from '../reads/lookup.js';
import { noAgentToWrite } from '../reads/lookup.js';
import type { KubeObject } from '../ports.js';
import { kustomizationOf } from '../reads/read-model.js';

const ref = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;

export function bareAgentConflict(namespace: string, name: string) {
  return conflict(
    `Agent ${namespace}/${name} is a bare CR with no HelmRelease behind it; agent-manager only writes HelmRelease ` +
    `values (recreate it with create_agent, or delete it with force)`,
  );
}

/**
 * The 409 for a GitOps-owned or suspended release without force, else undefined. In
 * commit mode neither applies: the change goes to git, where such a release is defined.
 */
export function releaseGuard(release: KubeObject, force: boolean, commit = false) {
  if (force || commit) return undefined;
  const kustomization = kustomizationOf(release);
  if (kustomization !== undefined) {
    return conflict(
      `HelmRelease ${ref(release)} is applied by Flux Kustomization "${kustomization}": its desired state lives in ` +
      `git, a live write would be undone. Change it in the GitOps repository, or pass force to write anyway`,
    );
  }
  if ((release.spec as { suspend?: unknown } | undefined)?.suspend === true) {
    return conflict(`HelmRelease ${ref(release)} is suspended: Flux will not act on a change. Resume it ` +
      `first, or pass force`);
  }
  return undefined;
}

/** The release an update may write, or the 404/409 that explains why not. */
export function writableRelease(objects: AgentObjects, force: boolean, commit = false): KubeObject {
  const { agent, release, namespace, name, foreign } = objects;
  if (!release) {
    if (agent) throw bareAgentConflict(namespace, name);
    throw foreign ?? noAgentToWrite(namespace, name);
  }
  const guard = releaseGuard(release, force, commit);
  if (guard) throw guard;
  return release;
}

import type { AccessReview, Gvr, KubePort, ReadCache } from './ports.js';
import type { ResourceTypes } from './resources.js';

/** A helper that takes the resource type as a parameter: followed to its callers. */
async function purge(kube: KubePort, gvr: Gvr, namespace: string): Promise<void> {
  for (const name of ['a', 'b']) await kube.remove(gvr, namespace, name);
}

export async function revisions(kube: KubePort, types: ResourceTypes): Promise<void> {
  const revision = types.controllerRevision;
  await kube.create(revision, {});
  await kube.list(revision, 'ns');
  await purge(kube, types.controllerRevision, 'ns');
}

export async function gitops(
  kube: KubePort, types: ResourceTypes, cache: ReadCache, review: AccessReview,
): Promise<void> {
  await kube.get(types.kustomization, 'ns', 'k');
  await kube.get(types.gitRepository, 'ns', 'g');
  await kube.watch(types.agent, 'ns', () => undefined);
  await cache.start(types.agent, 'ns');
  await review.canI('create', 'helmreleases', 'ns');
}

export async function unknown(kube: KubePort, gvr: Gvr): Promise<void> {
  await kube.get(gvr, 'ns', 'x');
}

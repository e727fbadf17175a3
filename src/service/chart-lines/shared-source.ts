/**
 * The namespace's shared chart source (the OCIRepository every agent release renders from), under one
 * rule: once a create or delete has answered, no live HelmRelease is left without a live source. Many
 * replicas and kubectl users write at once, so the rule rests on re-reading after each write, never on a
 * lock: a create ensures the source before and after its release write, and whoever removes the source
 * lists the releases again and restores it if one references it, so whichever comes last sees the other.
 * Objects being deleted (`deletionTimestamp`) count as gone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { backendError, isAppError } from '../../core/errors.js';
import { parseHelmRelease, releaseSource } from '../../core/objects/helm-release-view.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { ResourceTypes } from '../resources.js';

/** Where a source lives. */
export interface SourceRef {
  namespace: string;
  name: string;
}

/** How long a create or a restore waits for a source being deleted to disappear (its finalizer runs first). */
export const TERMINATING_WAIT_MS = 15_000;

/** An object that exists and is not being deleted. */
export function isLive(object: KubeObject | undefined): object is KubeObject {
  return object !== undefined && !object.metadata.deletionTimestamp;
}

/** The source a release renders from, when it renders from an OCIRepository. */
export function sourceOfRelease(release: KubeObject): SourceRef | undefined {
  return releaseSource(parseHelmRelease(release), release.metadata.namespace ?? '');
}

/** Names of the live releases that render from the source, except the one with `exceptUid`. */
export async function liveReferences(
  kube: KubePort, types: ResourceTypes, source: SourceRef, exceptUid?: string,
): Promise<string[]> {
  const releases = await kube.list(types.helmRelease, source.namespace);
  return releases
    .filter((r) => isLive(r) && (exceptUid === undefined || r.metadata.uid !== exceptUid))
    .filter((r) => {
      const ref = sourceOfRelease(r);
      return ref?.name === source.name && ref.namespace === source.namespace;
    })
    .map((r) => r.metadata.name)
    .sort();
}

export interface EnsureOptions {
  /** What a read made by the caller just now saw (`null`: nothing), saving the first read. */
  seen?: KubeObject | null;
  waitMs?: number;
}

/**
 * Makes the source live: nothing to do when it is, else it is created from `template`,
 * first waiting for a source being deleted to go. True when this call created it.
 */
export async function ensureSource(
  kube: KubePort, types: ResourceTypes, template: KubeObject, options: EnsureOptions = {},
): Promise<boolean> {
  const { namespace = '', name } = template.metadata;
  const waitMs = options.waitMs ?? TERMINATING_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let seen = options.seen;
  for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
    const current = seen !== undefined ? seen ?? undefined : await kube.get(types.ociRepository, namespace, name);
    seen = undefined;
    if (isLive(current)) return false;
    if (!current) {
      try {
        await kube.create(types.ociRepository, template);
        return true;
      } catch (err) {
        // Another writer created it (or it is still being deleted): read again.
        if (!isAppError(err, 'conflict')) throw err;
      }
    }
    if (Date.now() >= deadline) {
      throw backendError(`OCIRepository ${namespace}/${name} is being deleted and was still there after ` +
        `${Math.round(waitMs / 1000)} s, so it could not be created again; check its finalizers (source-controller ` +
        `removes them) and retry`);
    }
    await sleep(pause);
  }
}

/** What to create again: the source's identity, labels, annotations and spec, without server fields. */
function templateOf(source: KubeObject): KubeObject {
  const { name, namespace, labels, annotations } = source.metadata;
  return {
    apiVersion: source.apiVersion, kind: source.kind,
    metadata: { name, namespace, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
    spec: source.spec,
  };
}

/**
 * Removes the source when no live release (other than `exceptUid`) renders from it, and
 * restores it when one appeared meanwhile. True when it was removed, else why it stays.
 * A dry run sends the delete with dryRun=All and, since nothing was removed, re-checks nothing.
 */
export async function removeSourceIfUnused(
  kube: KubePort, types: ResourceTypes, source: SourceRef, exceptUid?: string, options: { dryRun?: boolean } = {},
): Promise<true | string> {
  const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));
  let current: KubeObject | undefined;
  try {
    const referencing = await liveReferences(kube, types, source, exceptUid);
    if (referencing.length > 0) {
      return `still referenced by ${referencing.length} other HelmRelease(s): ${referencing.join(', ')}`;
    }
    current = await kube.get(types.ociRepository, source.namespace, source.name);
  } catch (err) {
    return `could not list the other HelmReleases of the namespace: ${errText(err)}`;
  }
  if (!current) return 'no OCIRepository to delete';
  try {
    if (!(await kube.remove(types.ociRepository, source.namespace, source.name, options))) {
      return 'no OCIRepository to delete';
    }
  } catch (err) {
    return `delete refused: ${errText(err)}`;
  }
  if (options.dryRun) return true;
  // The re-check: a release written after the first list may have found the source still there.
  let appeared: string[];
  try {
    appeared = await liveReferences(kube, types, source, exceptUid);
  } catch (err) {
    appeared = [`(unknown: the re-check failed: ${errText(err)})`];
  }
  if (appeared.length === 0) return true;
  await ensureSource(kube, types, templateOf(current));
  return `recreated: HelmRelease(s) ${appeared.join(', ')} began rendering from it while this delete ran`;
}

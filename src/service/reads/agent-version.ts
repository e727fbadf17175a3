/**
 * An agent's `version`: what callers change, not what controllers write. A release's resourceVersion
 * moves on every write, helm-controller's several status writes per reconcile included, so a tag on it
 * goes stale within a second; `metadata.generation` moves only with the spec, and labels and annotations
 * are the rest a caller edits. So the version is `<generation>-<8 hex of sha256(uid, labels,
 * annotations)>`; the uid makes a release deleted and created again under its name another version.
 */
import { hash } from 'node:crypto';
import type { KubeObject } from '../ports.js';

/** JSON with sorted keys, so equal maps hash equally whatever their order. */
function sortedJson(map: Record<string, string> | undefined): string {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * Versions of frozen release objects already seen: the read cache hands out the same
 * deep-frozen object until the release changes, so a list of many agents hashes only the
 * releases that changed. Only frozen ones are remembered (nothing can change them after
 * the hash), keyed weakly, so a dropped object takes its entry with it.
 */
const seen = new WeakMap<KubeObject, string>();

/** The version of an agent whose HelmRelease is `release`. */
export function agentVersion(release: KubeObject): string {
  const frozen = Object.isFrozen(release.metadata) && Object.isFrozen(release.metadata.labels ?? {})
    && Object.isFrozen(release.metadata.annotations ?? {});
  if (!frozen) return computeVersion(release);
  let version = seen.get(release);
  if (version === undefined) {
    version = computeVersion(release);
    seen.set(release, version);
  }
  return version;
}

function computeVersion(release: KubeObject): string {
  const { generation, uid, labels, annotations } = release.metadata;
  // One-shot hash (no Hash object per agent): a list computes one per agent.
  const digest = hash('sha256', `${uid ?? ''}\n${sortedJson(labels)}\n${sortedJson(annotations)}`).slice(0, 8);
  return `${typeof generation === 'number' ? generation : 0}-${digest}`;
}

/**
 * The facts of a release the writes' decisions read (core/writes/write-decision.ts): where it is
 * (resourceVersion, the agent's `version`), who owns it and whether Flux acts on it. Read here, once, so
 * the decisions judge preconditions (core/writes/precondition-rules.ts) and ownership on plain values.
 */
import type { Preconditions } from '../../core/writes/precondition-rules.js';
import type { ReleaseFacts } from '../../core/writes/write-decision.js';
import { agentVersion } from '../reads/agent-version.js';
import { kustomizationOf } from '../reads/read-model.js';
import { asObject } from '../../core/json.js';
import type { KubeObject } from '../ports.js';

/**
 * The release's facts; undefined when the agent has no release. The agent's `version` (a digest of the spec,
 * labels and annotations) is computed only when `wanted` names one, since only a `version` precondition reads it.
 */
export function releaseFacts(release: KubeObject, wanted?: Preconditions): ReleaseFacts;
export function releaseFacts(release: KubeObject | undefined, wanted?: Preconditions): ReleaseFacts | undefined;
export function releaseFacts(release: KubeObject | undefined, wanted: Preconditions = {}): ReleaseFacts | undefined {
  if (!release) return undefined;
  const facts: ReleaseFacts = {
    ref: `${release.metadata.namespace}/${release.metadata.name}`,
    suspended: asObject(release.spec).suspend === true,
  };
  if (wanted.version !== undefined) facts.version = agentVersion(release);
  const kustomization = kustomizationOf(release);
  if (kustomization !== undefined) facts.kustomization = kustomization;
  if (release.metadata.resourceVersion !== undefined) facts.resourceVersion = release.metadata.resourceVersion;
  return facts;
}

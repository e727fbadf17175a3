/**
 * Who may write an agent here, for the paths that merge before they decide (an update's merge, validate_agent):
 * the release an update may write, or the 404/409 that explains why not. The rules are
 * core/writes/write-decision.ts's (GitOps-owned, suspended, bare Agent CR), judged on the release's facts.
 */
import { bareAgentConflict, ownershipConflict } from '../../core/writes/write-decision.js';
import type { AgentObjects } from '../reads/lookup.js';
import { noAgentToWrite } from '../reads/lookup.js';
import type { KubeObject } from '../ports.js';
import { releaseFacts } from './release-facts.js';

/** The release an update may write, or the 404/409 that explains why not. */
export function writableRelease(objects: AgentObjects, force: boolean, commit = false): KubeObject {
  const { agent, release, namespace, name, foreign } = objects;
  if (!release) {
    if (agent) throw bareAgentConflict(namespace, name);
    throw foreign ?? noAgentToWrite(namespace, name);
  }
  const guard = ownershipConflict(releaseFacts(release), force, commit);
  if (guard) throw guard;
  return release;
}

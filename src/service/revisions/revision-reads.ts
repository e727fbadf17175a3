/**
 * list_agent_revisions and get_agent_revision: the recorded revisions read against the live release
 * (core/revisions/revision-history.ts), in one concurrent round, a second only when the release lives in another
 * namespace than the agent. No Agent and no HelmRelease is a 404; a bare Agent CR has no revisions; a
 * malformed revision is listed with its `error` and refused by get (422) and rollback, never a 5xx.
 */
import { agentSkills } from '../../core/skills/skill-reads.js';
import { composeManifests } from '../../core/writes/compose.js';
import { changedPaths } from '../../core/diff.js';
import { notFound, toAppError, Unprocessable } from '../../core/errors.js';
import { validateName } from '../../core/names.js';
import { currentRevision, fluxHistory, revisionEntries, revisionEntry,
  type LiveRelease } from '../../core/revisions/revision-history.js';
import { annotatedRevision, type StoredRevision } from '../../core/revisions/revision-record.js';
import type { RevisionDetail, RevisionEntry } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import { agentNotFound, lookupAgent } from '../reads/lookup.js';
import type { OperationEnv } from '../operation-env.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import type { KubeObject } from '../ports.js';
import { historyNear, readHistory, releaseRevisions } from './revision-store.js';

export interface RevisionsRequest {
  namespace?: string;
  name: string;
}

interface ReleaseHistory {
  namespace: string;
  name: string;
  release?: KubeObject;
  revisions: StoredRevision[];
  live: LiveRelease;
}

/** The live state a revision is compared with. */
export function liveOf(release: KubeObject): LiveRelease {
  const { values } = parseHelmRelease(release);
  return { values, annotated: annotatedRevision(release.metadata.annotations), history: fluxHistory(release.status) };
}

async function readReleaseHistory(
  env: OperationEnv, ctx: RequestContext, request: RevisionsRequest,
): Promise<ReleaseHistory> {
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  const { name } = request;
  // Read-only operations: from the read cache when there is one (a write of this replica
  // is waited for there), like get_agent.
  const kube = env.reads(ctx);
  const [objects, read] = await Promise.all([
    lookupAgent(kube, env.types, namespace, name, env.compose.chartOciUrl),
    readHistory(kube, env.types, namespace, name),
  ]);
  if (!objects.agent && !objects.release) throw objects.foreign ?? agentNotFound(namespace, name);
  const { release } = objects;
  if (!release) return { namespace, name, revisions: [], live: { values: {}, history: [] } };
  const history = await historyNear(kube, env.types, read, release, name);
  if (history.failure !== undefined) throw toAppError(history.failure);
  return { namespace, name, release, revisions: releaseRevisions(history, release, ctx.log), live: liveOf(release) };
}

export async function listAgentRevisions(
  env: OperationEnv, ctx: RequestContext, request: RevisionsRequest,
): Promise<{ revisions: RevisionEntry[] }> {
  const read = await readReleaseHistory(env, ctx, request);
  if (!read.release) return { revisions: [] };
  return { revisions: revisionEntries(read.revisions, read.live) };
}

/** The 404 of a revision the agent does not have (any more). */
export function revisionNotFound(namespace: string, name: string, revision: number) {
  return notFound(
    `revision ${revision} of agent ${namespace}/${name}: no such revision is kept (list_agent_revisions lists `
    + `the ones there are)`,
  );
}

/** The 422 of a revision that does not fit the revision schema: it names what is wrong and the object to delete. */
export function malformedRevision(namespace: string, name: string, revision: StoredRevision): Unprocessable {
  return new Unprocessable(
    `revision ${revision.revision} of agent ${namespace}/${name} is malformed (${revision.problem ?? 'unreadable'}), `
    + `so it cannot be shown or applied again; pick another revision (list_agent_revisions), or delete `
    + `ControllerRevision ${namespace}/${revision.name}`,
  );
}

export async function getAgentRevision(
  env: OperationEnv, ctx: RequestContext, request: RevisionsRequest & { revision: number },
): Promise<RevisionDetail> {
  const read = await readReleaseHistory(env, ctx, request);
  const found = read.revisions.find((r) => r.revision === request.revision);
  if (!found || !read.release) throw revisionNotFound(read.namespace, read.name, request.revision);
  if (found.problem !== undefined) {
    throw malformedRevision(read.release.metadata.namespace ?? read.namespace, read.name, found);
  }
  const current = currentRevision(read.revisions, read.live) === found;
  const entry = revisionEntry(found, read.live, current);
  const releaseNamespace = read.release.metadata.namespace ?? read.namespace;
  return {
    ...entry,
    revision: found.revision,
    spec: found.spec,
    values: found.values,
    manifests: composeManifests(releaseNamespace, read.release.metadata.name, found.values, env.compose),
    diff: changedPaths(found.values, read.live.values),
    // Each pin the revision ran beside what it asked for, as agent reads show skills.
    ...withSkills(agentSkills(found.values.skills, found.skillRefs)),
  };
}

function withSkills(skills: RevisionDetail['skills']): Pick<RevisionDetail, 'skills'> {
  return skills ? { skills } : {};
}

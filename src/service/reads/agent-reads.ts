/**
 * list_agents and get_agent. List answers from three concurrent namespace
 * lists (Agents, HelmReleases, OCIRepositories) plus, only when an Agent's provenance
 * labels name a release in another namespace, one concurrent round of gets for those:
 * at most two sequential API round trips, whatever the number of agents. One object that
 * cannot be read degrades its item (`error`) and adds a line to `warnings`.
 */
import { deepFreeze } from '../../core/frozen.js';
import { AppError, ErrorCode, notFound, toAppError } from '../../core/errors.js';
import { summaryOf } from '../../core/status/agent-summary.js';
import type { Agent, AgentSummary } from '../../core/types.js';
import { agentChartSources, isAgentRelease } from './agent-chart.js';
import { lookupAgent, requireAgent } from './lookup.js';
import { listAnyAgents } from './agent-objects.js';
import type { KubeObject, KubePort } from '../ports.js';
import { agentOf, provenanceOf, releaseAgentName } from './read-model.js';
import type { ResourceTypes } from '../resources.js';
import { asObject } from '../../core/json.js';

const key = (ns: string, name: string): string => `${ns}/${name}`;

/**
 * Agents built from frozen objects, by the object they were read from (the Agent CR, or
 * the release of an agent kagent has not rendered yet). The read cache's objects are
 * frozen and replaced, never edited, so while the same CR is read back with the same
 * release the agent is the same too: a warm list builds only what changed since the
 * last one. The agent is frozen in turn (every reader gets the same object), which also
 * lets the REST layer reuse its encoded text. Objects read from the API server are
 * fresh on every read and are never kept. Weakly held: an object the cache dropped
 * takes its agent with it.
 */
const built = new WeakMap<KubeObject, { release: KubeObject | undefined; name: string; agent: Agent }>();

function memoized(from: KubeObject, release: KubeObject | undefined, name: string, build: () => Agent): Agent {
  if (!Object.isFrozen(from) || (release !== undefined && !Object.isFrozen(release))) return build();
  const hit = built.get(from);
  if (hit && hit.release === release && hit.name === name) return hit.agent;
  const agent = deepFreeze(build());
  built.set(from, { release, name, agent });
  return agent;
}

/**
 * The list row of an agent (details=false), kept by the agent it was made from when that agent is one of
 * the frozen ones above: a warm page of thousands makes only the rows that changed, and the REST layer
 * reuses each frozen row's encoded text instead of serializing the page again.
 */
const rows = new WeakMap<Agent, AgentSummary>();

export function summaryRow(agent: Agent): AgentSummary {
  if (!Object.isFrozen(agent)) return summaryOf(agent);
  let row = rows.get(agent);
  if (row === undefined) {
    row = deepFreeze(summaryOf(agent));
    rows.set(agent, row);
  }
  return row;
}

/** The agent of an Agent CR and its release (either may be absent, not both). */
export function readAgent(cr: KubeObject | undefined, release: KubeObject | undefined, name: string): Agent {
  return memoized((cr ?? release)!, release, name, () => agentOf(cr, release, name));
}

export interface ReadContext {
  kube: KubePort;
  types: ResourceTypes;
  chartUrl: string;
}

/** The agents of a namespace and what could not be read while listing them. */
export interface ListedAgents {
  agents: Agent[];
  warnings?: string[];
}

type Pair = { cr: KubeObject; release?: KubeObject; foreign?: { name: string; namespace: string }; error?: AppError };

/**
 * Every agent of the namespace: Agent CRs with their releases, plus releases not rendered yet.
 * Only the two lists that say which agents there are (Agents, HelmReleases) can fail it; an
 * object read for one item (a release in another namespace: 403, 404, a timeout, a malformed
 * object) degrades that item, which carries `error`, and the list carries `warnings`.
 */
export async function listAgents(rc: ReadContext, namespace: string): Promise<ListedAgents> {
  const { kube, types } = rc;
  const warnings: string[] = [];
  const [crs, releases, sources] = await Promise.all([
    listAnyAgents(rc, kube, namespace),
    kube.list(types.helmRelease, namespace),
    kube.list(types.ociRepository, namespace).catch((err: unknown): KubeObject[] => {
      warnings.push(`the OCIRepositories of namespace ${namespace} could not be listed, so HelmReleases not rendered `
        + `yet are recognised by the chart's source name only: ${toAppError(err).message}`);
      return [];
    }),
  ]);
  const local = new Map(releases.map((r) => [r.metadata.name, r]));
  const pairs: Pair[] = [];
  for (const cr of crs) {
    const labelled = provenanceOf(cr);
    if (labelled && labelled.namespace !== namespace) pairs.push({ cr, foreign: labelled });
    else pairs.push({ cr, release: local.get(labelled?.name ?? cr.metadata.name) });
  }
  await Promise.all(pairs.filter((p) => p.foreign).map(async (p) => {
    const where = `${p.foreign!.namespace}/${p.foreign!.name}`;
    try {
      const release = await kube.get(types.helmRelease, p.foreign!.namespace, p.foreign!.name);
      if (!release) p.error = notFound(`the HelmRelease ${where} the Agent's labels name does not exist`);
      else if (!isNamedObject(release)) p.error = new AppError(ErrorCode.Backend,
        `the HelmRelease ${where} the Agent's labels name is malformed: it has no metadata.name`);
      else p.release = release;
    } catch (err) {
      const cause = toAppError(err);
      p.error = new AppError(cause.code,
        `the HelmRelease ${where} the Agent's labels name could not be read: ${cause.detail}`);
    }
  }));

  const matched = new Set(pairs.flatMap((p) =>
    (p.release ? [key(p.release.metadata.namespace ?? '', p.release.metadata.name)] : [])));
  const agents = pairs.map((p) => itemOf(p.cr, p.release, p.cr.metadata.name, p.error));
  const chartSources = agentChartSources(sources, rc.chartUrl);
  for (const release of releases) {
    if (matched.has(key(release.metadata.namespace ?? namespace, release.metadata.name))) continue;
    if (!isAgentRelease(release, chartSources, namespace)) continue;
    agents.push(itemOf(undefined, release, releaseAgentName(release)));
  }
  for (const agent of agents) {
    if (agent.error) warnings.push(`agent ${agent.namespace}/${agent.name}: ${agent.error.message}`);
  }
  agents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return warnings.length > 0 ? { agents, warnings } : { agents };
}

/** True for an object with the metadata every later step reads (an answer of any shape may come back). */
function isNamedObject(object: KubeObject): boolean {
  return typeof asObject(asObject(object).metadata).name === 'string';
}

/** One list item: the agent, or as much of it as could be read with `error`; never throws. */
function itemOf(cr: KubeObject | undefined, release: KubeObject | undefined, name: string, error?: AppError): Agent {
  const itemError = (e: AppError) => ({ code: e.code, message: e.message });
  try {
    const agent = readAgent(cr, release, name);
    return error ? { ...agent, error: itemError(error) } : agent;
  } catch (err) {
    // An object of a shape the read model cannot take: the item names it, the rest of the list stands.
    const from = cr ?? release!;
    const problem = new AppError(ErrorCode.Invalid,
      `the ${from.kind ?? 'object'} ${from.metadata.namespace ?? ''}/${name} is malformed: ${toAppError(err).detail}`);
    return {
      name, namespace: from.metadata.namespace ?? '', exists: cr !== undefined, ready: null, accepted: null,
      managed: release ? 'helmrelease' : 'none',
      error: itemError(error ?? problem),
    };
  }
}

/** One agent: from its Agent CR when kagent rendered it, else from its release. */
export async function getAgent(rc: ReadContext, namespace: string, name: string): Promise<Agent> {
  const objects = requireAgent(await lookupAgent(rc.kube, rc.types, namespace, name, rc.chartUrl));
  return readAgent(objects.agent, objects.release, name);
}

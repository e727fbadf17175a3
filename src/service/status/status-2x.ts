/**
 * The status of an agent of chart 2.x: the release and the Agent's own status (there are no pods; the Agent runs
 * on its Harness), Warning events about the agent's objects only (Agent, RemoteMCPServer and HelmRelease share its
 * name), folded by the 8.3 ladder (core/chart-lines/verdict-2x.ts). Which fold an agent gets is decided here too,
 * so the shared status read (agent-status.ts) holds no chart-line rule of its own.
 */
import { isLine2Agent, objectStatus } from '../../core/chart-lines/agent-2x.js';
import { parseAgent } from '../../core/objects/agent-view.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import { majorOfVersion } from '../../core/chart-lines/major-line.js';
import { statusVerdict2x } from '../../core/chart-lines/verdict-2x.js';
import { summarizeEvents } from '../../core/status/events.js';
import { asObject } from '../../core/json.js';
import type { Status } from '../../core/types.js';
import type { StatusFacts, VerdictOptions } from '../../core/status/verdict.js';
import type { KubeObject } from '../ports.js';
import { NO_RELEASE, releaseFacts, releaseTop, type StatusObjects } from './status-facts.js';

/** A release whose Agent is not rendered yet is of chart 2.x when it installed a 2.x chart or names a Harness. */
function releaseIsLine2(release: KubeObject): boolean {
  const { status, values } = parseHelmRelease(release);
  const history = status.history[0]?.chartVersion;
  const installed = typeof history === 'string' ? history : status.lastAttemptedRevision;
  const major = majorOfVersion(installed);
  if (major !== undefined) return major === 2;
  return typeof asObject(values.agent).harness === 'string';
}

/** True when the objects are a 2.x agent's: its Agent is api.kagent.dev's, or its release (not rendered yet) is 2.x. */
export function isLine2Status(objects: StatusObjects): boolean {
  if (objects.agent) return isLine2Agent(objects.agent);
  return objects.release !== undefined && releaseIsLine2(objects.release);
}

/** The Status of a 2.x agent. */
export function foldStatus2x(namespace: string, name: string, objects: StatusObjects, options: VerdictOptions):
Status {
  const { agent, release } = objects;
  const view = agent && parseAgent(agent);
  const facts: StatusFacts = {
    agent: view
      ? { ...objectStatus(view), ...(view.apiVersion ? { apiVersion: view.apiVersion } : {}) }
      : { exists: false, ready: null, accepted: null },
    helmRelease: release ? releaseFacts(release) : NO_RELEASE,
    events: summarizeEvents(objects.events, name, []),
  };
  return { name, namespace, ...statusVerdict2x(facts, options), ...releaseTop(facts.helmRelease), ...facts };
}

/**
 * The waiting operations over the rollout waiter: wait_for_agent (final Status with `timedOut` and
 * `waitedSeconds`, changes as progress), the REST status stream and a write's `wait`. A wait runs as the
 * request's identity against the API server, never the read cache, so it shows exactly what the caller
 * may see on any replica. It ends early when the client goes away or the server shuts down; a shutdown
 * is a 503 (Retry-After on REST) saying to call again, since another replica can go on waiting.
 */
import { backendError, isAppError, shutdownUnavailable, toAppError, unsupported } from '../../core/errors.js';
import { validateName } from '../../core/names.js';
import type { Agent, Status, WaitResult } from '../../core/types.js';
import { elapsedSeconds, WAIT_DEFAULT_SECONDS, waitGeneration, waitSeconds, type WaitEnd,
  type WaitUntil } from '../../core/status/wait-rules.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import type { WatchPort } from '../ports.js';
import { lookupAgent } from '../reads/lookup.js';
import { getAgent } from '../reads/agent-reads.js';
import { agentStatus } from '../status/agent-status.js';
import { waitForRollout, type RolloutOutcome } from './rollout-waiter.js';

export interface WaitRequest {
  namespace?: string;
  name: string;
  until?: WaitUntil;
  timeoutSeconds?: number;
  /** Not ready before the HelmRelease has reached at least this generation. */
  generation?: number;
}

/** How a followed status stream ended: a wait's end, or cut short by the server shutting down or the client leaving. */
export type FollowEnd = WaitEnd | 'shutdown' | 'disconnected';

function watchesOf(env: OperationEnv, ctx: RequestContext): WatchPort {
  const watches = env.deps.kube.forWatches?.(ctx);
  if (!watches) throw unsupported('waiting needs Kubernetes watches, which this installation\'s client does not offer');
  return watches;
}

function signalOf(env: OperationEnv, ctx: RequestContext): AbortSignal | undefined {
  const signals = [ctx.signal, env.deps.shutdown].filter((s): s is AbortSignal => s !== undefined);
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

/** Why a wait was cut short: the server's shutdown, else the client left (nobody reads this answer). */
const cutShort = (env: OperationEnv, namespace: string, name: string) => (env.deps.shutdown?.aborted
  ? shutdownUnavailable(namespace, name)
  : backendError(`the client went away; stopped waiting for agent ${namespace}/${name}`));

async function follow(
  env: OperationEnv, ctx: RequestContext, namespace: string, name: string, until: WaitUntil, seconds: number,
  onStatus?: (status: Status) => void, generation?: number,
): Promise<RolloutOutcome> {
  return waitForRollout(watchesOf(env, ctx), env.types, {
    namespace, name, until, timeoutMs: seconds * 1000, signal: signalOf(env, ctx), onStatus, generation,
  });
}

/**
 * The 404 of a name only a HelmRelease of another chart has (reads/agent-chart.ts): no agent to wait for.
 * Asked where a wait starts from a name; a write's own wait follows the agent the write just checked.
 */
async function refuseAnotherChart(env: OperationEnv, ctx: RequestContext, namespace: string, name: string) {
  const found = await lookupAgent(env.kube(ctx), env.types, namespace, name, env.compose.chartOciUrl);
  if (!found.agent && !found.release && found.foreign) throw found.foreign;
}

/** A wait request's arguments, or the 400 that refuses one; before anything is read. */
function waitArguments(env: OperationEnv, request: WaitRequest) {
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  const seconds = waitSeconds('timeoutSeconds', request.timeoutSeconds, 1, WAIT_DEFAULT_SECONDS);
  return { namespace, seconds, until: request.until ?? 'ready', generation: waitGeneration(request.generation) };
}

/**
 * Where a wait starts, without waiting (a HEAD of the wait route, which has no content to wait
 * for): the wait's own refusals, then the agent's status now; undefined when the wait is for the
 * deletion of an agent that is already gone.
 */
export async function waitStart(
  env: OperationEnv, ctx: RequestContext, request: WaitRequest,
): Promise<Status | undefined> {
  const { namespace, until } = waitArguments(env, request);
  try {
    return await agentStatus(env.reads(ctx), env.types, namespace, request.name, env.compose.chartOciUrl);
  } catch (err) {
    if (until === 'deleted' && isAppError(err, 'not_found')) return undefined;
    throw err;
  }
}

/** wait_for_agent: the final Status once the agent is where `until` says, has failed, or the time is up. */
export async function waitForAgent(env: OperationEnv, ctx: RequestContext, request: WaitRequest): Promise<WaitResult> {
  const { namespace, seconds, until, generation } = waitArguments(env, request);
  await refuseAnotherChart(env, ctx, namespace, request.name);
  const outcome = await follow(
    env, ctx, namespace, request.name, until, seconds, (status) => ctx.progress?.(status.summary), generation,
  );
  if (outcome.end === 'aborted') throw cutShort(env, namespace, request.name);
  return { ...outcome.status, timedOut: outcome.end === 'timeout', waitedSeconds: outcome.waitedSeconds };
}

/**
 * The REST status stream: `onStatus` with the first status (before it, a failed read or
 * a missing agent rejects, so the caller can still answer with an error) and every
 * status that is news, until the agent is ready, failed or deleted or the time is up.
 */
export async function followAgentStatus(
  env: OperationEnv, ctx: RequestContext,
  request: { namespace?: string; name: string; timeoutSeconds?: number; generation?: number },
  onStatus: (status: Status) => void,
): Promise<FollowEnd> {
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  const seconds = waitSeconds('timeoutSeconds', request.timeoutSeconds, 1, WAIT_DEFAULT_SECONDS);
  const generation = waitGeneration(request.generation);
  await refuseAnotherChart(env, ctx, namespace, request.name);
  const outcome = await follow(env, ctx, namespace, request.name, 'ready', seconds, onStatus, generation);
  if (outcome.end !== 'aborted') return outcome.end;
  return env.deps.shutdown?.aborted ? 'shutdown' : 'disconnected';
}

/** What a write answers that can carry a rollout: its agent, and where the wait's outcome goes. */
interface WaitableResult {
  agent: { name: string; namespace: string };
  generation?: number;
  status?: Status;
  timedOut?: boolean;
  waitedSeconds?: number;
  notes?: string[];
}

/**
 * The agent as read once the wait ended (from the API server, as the caller), so the answer
 * says what the wait saw (the Agent rendered, its conditions) and not the state the write
 * left; the write's own agent when it cannot be read (the wait's status still says why).
 */
async function agentAfter<A extends WaitableResult['agent']>(env: OperationEnv, ctx: RequestContext,
  agent: A): Promise<A | Agent> {
  try {
    return await getAgent(
      { kube: env.kube(ctx), types: env.types, chartUrl: env.compose.chartOciUrl }, agent.namespace, agent.name,
    );
  } catch {
    return agent;
  }
}

/**
 * A write's `wait`: the result with the agent's Status once it was ready or failed or
 * `seconds` were up, `timedOut` and `waitedSeconds`. The write has happened whatever the
 * wait does, so a wait that cannot finish (the server shuts down, a watch is refused) is a
 * note on the result and `timedOut: true`, never a failed write.
 */
export async function withRollout<R extends WaitableResult>(
  env: OperationEnv, ctx: RequestContext, result: R, seconds: number,
): Promise<R> {
  const { namespace, name } = result.agent;
  const started = Date.now();
  const note = (text: string): R => ({
    ...result, timedOut: true, waitedSeconds: elapsedSeconds(started, Date.now()),
    notes: [...(result.notes ?? []), text],
  });
  let outcome: RolloutOutcome;
  try {
    // As wait_for_agent, every verdict change is the call's progress (MCP, with a progress token).
    // Not ready before the release reached the generation this write left.
    outcome = await follow(env, ctx, namespace, name, 'ready', seconds, (status) => ctx.progress?.(status.summary),
      result.generation);
  } catch (err) {
    return note(`the write was applied, but waiting for the rollout failed: ${toAppError(err).message}; follow it ` +
      `with wait_for_agent`);
  }
  const waited = {
    ...result, agent: await agentAfter(env, ctx, result.agent), status: outcome.status,
    timedOut: outcome.end !== 'ready' && outcome.end !== 'failed', waitedSeconds: outcome.waitedSeconds,
  };
  if (outcome.end === 'aborted' && env.deps.shutdown?.aborted) {
    return { ...waited, notes: [...(result.notes ?? []),
      'the server shut down before the rollout ended; follow it with wait_for_agent'] };
  }
  return waited;
}

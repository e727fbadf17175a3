/**
 * The session operations: talk to a ready agent over A2A through the kagent controller, as the caller.
 * Nothing is kept in the process: a session is its A2A context, a requestId maps to one by a name-based
 * id (session-id.ts), and every read asks the agent, so any replica answers the same; a retry with the
 * same requestId and message is a replay (`replayed: true`), with another message a 409. Refusals in
 * order: 501 without an A2A endpoint, the inputs (400), the agent (404 missing, 409 not ready, naming its
 * verdict), the endpoint (502 naming the URL).
 */
import { conflict, notFound, unsupported } from '../../core/errors.js';
import { goQuote } from '../../core/go-quote.js';
import { validateName } from '../../core/names.js';
import type { Session, SessionDetail, SessionList, SessionTurn, Turn } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import { agentStatus } from '../status/agent-status.js';
import { a2aIdentity } from './identity.js';
import { checkMessage, checkOptional, checkSessionId, MAX_REQUEST_ID_CHARS, MAX_SESSION_NAME_CHARS,
  turnSeconds } from './limits.js';
import type { A2AConversation, A2AJson } from './session-port.js';
import { sessionContextId } from './session-id.js';
import { askedText, oldestFirst, sessionOf, sessionsOf, turnOf } from './turns.js';

export interface StartSessionRequest {
  name: string;
  namespace?: string;
  message?: string;
  requestId?: string;
  sessionName?: string;
  timeoutSeconds?: number;
}

export interface SendMessageRequest {
  name: string;
  namespace?: string;
  sessionId?: string;
  message?: string;
  timeoutSeconds?: number;
}

export interface SessionRef {
  name: string;
  namespace?: string;
  sessionId?: string;
}

/** The session a turn is in: known before its first update, so a stream can name it (its `Location`) up front. */
export type TurnSession = Pick<Session, 'id' | 'agent'>;

/** Each status update of a turn, as the turn stands after it, and the session it is in (REST streams them). */
export type TurnListener = (turn: Turn, session: TurnSession) => void;

/** The most tasks one read asks the agent for. */
const TASK_LIMIT = 1_000;

const NO_ENDPOINT =
  'this installation has no kagent A2A endpoint (--kagent-a2a-url is empty), so the session tools are not offered';

interface Opened {
  readonly agent: { namespace: string; name: string };
  readonly conversation: A2AConversation;
}

/** The agent, checked to exist and be ready, and its A2A endpoint opened as the caller. */
async function openAgent(
  env: OperationEnv, ctx: RequestContext, request: { name: string; namespace?: string }, check?: () => void,
): Promise<Opened & { user?: string }> {
  const sessions = env.deps.sessions;
  if (!sessions) throw unsupported(NO_ENDPOINT);
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  check?.();
  const identity = a2aIdentity(ctx, sessions.oauth);
  const status = await agentStatus(env.reads(ctx), env.types, namespace, request.name, env.compose.chartOciUrl);
  if (status.verdict !== 'ready') {
    // Waiting cannot help a suspended release's change: only resuming it rolls it out.
    const next = status.suspended
      ? 'Resume its HelmRelease (flux resume helmrelease), then try again'
      : 'Wait for it with wait_for_agent, then try again';
    throw conflict(`agent ${namespace}/${request.name} is not ready (verdict ${status.verdict}): ${status.summary}. ` +
      next);
  }
  const conversation = await sessions.a2a.open(namespace, request.name, identity, ctx.signal);
  return { agent: { namespace, name: request.name }, conversation, user: identity.user };
}

/** Sends one message and waits for the turn, at most `seconds`; updates go to MCP progress and `onUpdate`. */
async function runTurn(
  ctx: RequestContext, opened: Opened,
  message: { contextId: string; text: string; metadata?: Record<string, string> }, seconds: number,
  onUpdate?: TurnListener,
): Promise<{ task: A2AJson; turn: Turn }> {
  const { conversation } = opened;
  const session: TurnSession = { id: message.contextId, agent: opened.agent };
  const deadline = ctx.signal
    ? AbortSignal.any([ctx.signal, AbortSignal.timeout(seconds * 1000)])
    : AbortSignal.timeout(seconds * 1000);
  let updates = 0;
  const outcome = await conversation.send(message, {
    deadline,
    onUpdate: (task) => {
      updates += 1;
      const turn = turnOf(task, updates);
      ctx.progress?.(`${turn.state}${turn.text ? `: ${turn.text}` : ''}`);
      onUpdate?.(turn, session);
    },
  });
  return { task: outcome.task, turn: turnOf(outcome.task, outcome.updates) };
}

/** The caller's tasks of one session, or the 404 that says it is not theirs or not there. */
async function sessionTasks(opened: Opened, sessionId: string): Promise<A2AJson[]> {
  const tasks = await opened.conversation.listTasks(sessionId, TASK_LIMIT);
  if (tasks.length === 0) {
    const { namespace, name } = opened.agent;
    throw notFound(`session ${sessionId} of agent ${namespace}/${name} not found (list_sessions shows the ` +
      `sessions you started)`);
  }
  return tasks;
}

/** How much of the first message a requestId conflict quotes. */
const QUOTED_CHARS = 80;

/** The 409 of a requestId that already started a session with another message. */
function requestIdReused(
  agent: { namespace: string; name: string }, requestId: string, sessionId: string, asked: string,
) {
  const chars = [...asked];
  const quoted = chars.length > QUOTED_CHARS ? `${goQuote(chars.slice(0, QUOTED_CHARS).join(''))}…` : goQuote(asked);
  return conflict(`requestId ${goQuote(requestId)} already started session ${sessionId} of agent ` +
    `${agent.namespace}/${agent.name} with another message (${quoted}); a retry sends the same message. Use a new ` +
    `requestId for a new session, or send_message with that sessionId to continue it`);
}

export async function startSession(
  env: OperationEnv, ctx: RequestContext, request: StartSessionRequest, onUpdate?: TurnListener,
): Promise<SessionTurn> {
  let text = '';
  let requestId: string | undefined;
  let sessionName: string | undefined;
  let seconds = 0;
  const opened = await openAgent(env, ctx, request, () => {
    text = checkMessage(request.message);
    requestId = checkOptional('requestId', request.requestId, MAX_REQUEST_ID_CHARS);
    sessionName = checkOptional('sessionName', request.sessionName, MAX_SESSION_NAME_CHARS);
    seconds = turnSeconds(request.timeoutSeconds);
  });
  const { agent, conversation } = opened;
  const contextId = sessionContextId({ user: opened.user, ...agent, requestId });
  if (requestId !== undefined) {
    // A retry of a start that reached the agent: answer that session and its first turn, saying it is a
    // replay; the same requestId with another message is a different request, refused rather than
    // answered with the old one.
    const existing = await conversation.listTasks(contextId, TASK_LIMIT);
    if (existing.length > 0) {
      const first = oldestFirst(existing)[0]!;
      const asked = askedText(first);
      if (asked !== undefined && asked !== text) throw requestIdReused(agent, requestId, contextId, asked);
      return { session: sessionOf(agent, contextId, existing, sessionName), turn: turnOf(first, 0), replayed: true };
    }
  }
  const { task, turn } = await runTurn(
    ctx, opened, { contextId, text, ...(sessionName ? { metadata: { sessionName } } : {}) }, seconds, onUpdate,
  );
  ctx.log.info({ agent: `${agent.namespace}/${agent.name}`, session: contextId, state: turn.state }, 'session started');
  return { session: sessionOf(agent, contextId, [task], sessionName), turn };
}

export async function sendMessage(
  env: OperationEnv, ctx: RequestContext, request: SendMessageRequest, onUpdate?: TurnListener,
): Promise<SessionTurn> {
  let text = '';
  let sessionId = '';
  let seconds = 0;
  const opened = await openAgent(env, ctx, request, () => {
    sessionId = checkSessionId(request.sessionId);
    text = checkMessage(request.message);
    seconds = turnSeconds(request.timeoutSeconds);
  });
  const before = await sessionTasks(opened, sessionId);
  const { task, turn } = await runTurn(ctx, opened, { contextId: sessionId, text }, seconds, onUpdate);
  const others = before.filter((t) => t.id !== task.id);
  return { session: sessionOf(opened.agent, sessionId, [...others, task]), turn };
}

export async function listSessions(
  env: OperationEnv, ctx: RequestContext, request: { name: string; namespace?: string },
): Promise<SessionList> {
  const opened = await openAgent(env, ctx, request);
  const tasks = await opened.conversation.listTasks(undefined, TASK_LIMIT);
  return { agent: opened.agent, sessions: sessionsOf(opened.agent, tasks) };
}

export async function getSession(env: OperationEnv, ctx: RequestContext, request: SessionRef): Promise<SessionDetail> {
  let sessionId = '';
  const opened = await openAgent(env, ctx, request, () => {
    sessionId = checkSessionId(request.sessionId);
  });
  const tasks = oldestFirst(await sessionTasks(opened, sessionId));
  return { session: sessionOf(opened.agent, sessionId, tasks), tasks };
}

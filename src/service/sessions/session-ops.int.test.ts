/**
 * The session operations on a real AgentService over the sandbox, whose kagent controller
 * serves A2A for Ready agents: a conversation starts, continues, lists and reads back with
 * the responder's answers; a requestId answers the same session without sending again (replayed), and
 * is a 409 with another message; a
 * turn past its timeout answers complete: false; the refusals (501, 400 lengths, 404, 409
 * naming the verdict, 502 naming the URL) come in that order; with OAuth the caller's
 * token and user reach the endpoint and each caller sees only their own sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import type { Caller, RequestContext } from '../../identity/caller.js';
import { sandboxSessions, startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';
import { KagentA2A } from '../../a2a/kagent-a2a.js';

let f: ServiceFixture;
let oauth: ServiceFixture;

const refusal = async (run: Promise<unknown>): Promise<{ code: string; status: number; message: string }> => {
  const err = await run.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return { code: err.code, status: err.status, message: err.message };
};

const caller = (email: string): Caller => ({ subject: email.split('@')[0]!, email, groups: [], source: 'sso' });
const as = (fx: ServiceFixture, email: string, token: string): RequestContext =>
  fx.ctx({ caller: caller(email), token });

async function readyAgent(fx: ServiceFixture, name: string, displayName: string): Promise<void> {
  const created = await fx.service.createAgent(fx.ctx(), { name, modelConfig: 'default-model-config', displayName, toolset: ['preset:read-only'], wait: 30 });
  expect(created.status?.verdict).toBe('ready');
}

beforeAll(async () => {
  [f, oauth] = await Promise.all([
    startServiceFixture({ sandbox: { controllers: true, reconcileDelayMs: 5 }, sessions: sandboxSessions() }),
    startServiceFixture({ sandbox: { controllers: true, reconcileDelayMs: 5 }, sessions: sandboxSessions(true) }),
  ]);
  await Promise.all([readyAgent(f, 'chatty', 'Chatty Bot'), readyAgent(oauth, 'guarded', 'Guarded Bot')]);
});
afterAll(async () => {
  await Promise.all([f?.close(), oauth?.close()]);
});

describe('start_session, send_message, list_sessions, get_session', () => {
  it('talks to the agent: the greeting, the toolset, an echo, then the session and its tasks oldest first', async () => {
    const started = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'hello', sessionName: 'first try' });
    expect(started.turn).toMatchObject({ state: 'TASK_STATE_COMPLETED', complete: true, text: 'Hello, I am Chatty Bot. You said: hello' });
    expect(started.turn.updates).toBeGreaterThanOrEqual(3);
    expect(started.session).toMatchObject({ agent: { namespace: 'kagent', name: 'chatty' }, name: 'first try', turns: 1, state: 'TASK_STATE_COMPLETED' });
    const tools = await f.service.sendMessage(f.ctx(), { name: 'chatty', sessionId: started.session.id, message: 'which tools can you use?' });
    expect(tools.turn.text).toBe('My toolset: preset:read-only');
    expect(tools.session).toMatchObject({ id: started.session.id, turns: 2, name: 'first try' });
    const echo = await f.service.sendMessage(f.ctx(), { name: 'chatty', sessionId: started.session.id, message: 'and now?' });
    expect(echo.turn.text).toBe('You said: and now?');
    const listed = await f.service.listSessions(f.ctx(), { name: 'chatty' });
    expect(listed.agent).toEqual({ namespace: 'kagent', name: 'chatty' });
    expect(listed.sessions.find((s) => s.id === started.session.id)).toMatchObject({ turns: 3, name: 'first try' });
    const detail = await f.service.getSession(f.ctx(), { name: 'chatty', sessionId: started.session.id });
    expect(detail.tasks.map((t) => t.id)).toEqual([started.turn.taskId, tools.turn.taskId, echo.turn.taskId]);
    expect(detail.tasks[0]).toMatchObject({ contextId: started.session.id, status: { state: 'TASK_STATE_COMPLETED' } });
  });

  it('reports each status update as MCP progress', async () => {
    const progress: string[] = [];
    await f.service.startSession(f.ctx({ progress: (m) => progress.push(m) }), { name: 'chatty', message: 'hi' });
    expect(progress.slice(0, 3)).toEqual(['TASK_STATE_WORKING: reading the message', 'TASK_STATE_WORKING: thinking', 'TASK_STATE_WORKING: writing the answer']);
    expect(progress.at(-1)).toMatch(/^TASK_STATE_COMPLETED: Hello, I am Chatty Bot/);
  });

  it('answers what arrived with complete: false when the turn outlasts timeoutSeconds, and the turn goes on', async () => {
    const held = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'hold', timeoutSeconds: 1 });
    expect(held.turn).toMatchObject({ state: 'TASK_STATE_WORKING', complete: false, text: 'holding until cancelled', updates: 1 });
    const detail = await f.service.getSession(f.ctx(), { name: 'chatty', sessionId: held.session.id });
    expect(detail.tasks[0]).toMatchObject({ id: held.turn.taskId, status: { state: 'TASK_STATE_WORKING' } });
  });

  it('answers a failed turn as the agent reported it', async () => {
    const failed = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'fail' });
    expect(failed.turn).toMatchObject({ state: 'TASK_STATE_FAILED', complete: true });
  });

  it('answers the same session for the same requestId, without sending the message again', async () => {
    const first = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'once', requestId: 'req-42' });
    const sends = f.sandbox.a2aRequests.filter((r) => r.method === 'POST').length;
    expect(first).not.toHaveProperty('replayed');
    const again = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'once', requestId: 'req-42' });
    expect(again.replayed).toBe(true);
    expect(again.turn.text).toBe(first.turn.text);
    expect(again.session.id).toBe(first.session.id);
    expect(again.turn.taskId).toBe(first.turn.taskId);
    expect(again.session.turns).toBe(1);
    // The retry only listed the context's tasks (one JSON-RPC POST), it sent nothing.
    expect(f.sandbox.a2aRequests.filter((r) => r.method === 'POST').length).toBe(sends + 1);
    const other = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'once', requestId: 'req-43' });
    expect(other.session.id).not.toBe(first.session.id);
  });

  it('refuses the same requestId with another message (409 naming the session and its message), sending nothing', async () => {
    const first = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'first question', requestId: 'req-77' });
    const sends = f.sandbox.a2aRequests.filter((r) => r.method === 'POST').length;
    const r = await refusal(f.service.startSession(f.ctx(), { name: 'chatty', message: 'a totally different question', requestId: 'req-77' }));
    expect(r).toMatchObject({ code: 'conflict', status: 409 });
    expect(r.message).toBe(`conflict: requestId "req-77" already started session ${first.session.id} of agent kagent/chatty with ` +
      'another message ("first question"); a retry sends the same message. Use a new requestId for a new session, or ' +
      'send_message with that sessionId to continue it');
    // Only the context's tasks were listed.
    expect(f.sandbox.a2aRequests.filter((r) => r.method === 'POST').length).toBe(sends + 1);
    const detail = await f.service.getSession(f.ctx(), { name: 'chatty', sessionId: first.session.id });
    expect(detail.session.turns).toBe(1);
  });
});

describe('the session refusals', () => {
  it('is 501 naming the flag when no A2A endpoint is configured', async () => {
    const off = await startServiceFixture();
    try {
      const r = await refusal(off.service.startSession(off.ctx(), { name: 'x', message: 'hi' }));
      expect(r).toMatchObject({ code: 'unsupported', status: 501 });
      expect(r.message).toContain('--kagent-a2a-url');
      expect((await off.service.getInfo(off.ctx())).capabilities.sessions).toBe(false);
    } finally {
      await off.close();
    }
  });

  it.each([
    ['a message of 32001 characters', { message: 'x'.repeat(32_001) }, 'invalid request: message is 32001 characters; at most 32000 are accepted'],
    ['no message', {}, 'invalid request: message is required'],
    ['a requestId of 129 characters', { message: 'hi', requestId: 'r'.repeat(129) }, 'invalid request: requestId is 129 characters; at most 128 are accepted'],
    ['a sessionName of 201 characters', { message: 'hi', sessionName: 'n'.repeat(201) }, 'invalid request: sessionName is 201 characters; at most 200 are accepted'],
    ['a timeout of 601 seconds', { message: 'hi', timeoutSeconds: 601 }, 'invalid request: timeoutSeconds must be a whole number of seconds from 1 to 600'],
  ])('refuses %s with a 400', async (_name, input, text) => {
    const r = await refusal(f.service.startSession(f.ctx(), { name: 'chatty', ...input }));
    expect(r.status).toBe(400);
    expect(r.message.startsWith(text)).toBe(true);
  });

  it('accepts a message of exactly 32000 characters', async () => {
    const ok = await f.service.startSession(f.ctx(), { name: 'chatty', message: 'y'.repeat(32_000) });
    expect(ok.turn.complete).toBe(true);
  });

  it('is 404 for an agent that does not exist and for a session that is not there', async () => {
    expect(await refusal(f.service.startSession(f.ctx(), { name: 'nobody', message: 'hi' }))).toMatchObject({
      status: 404, message: expect.stringMatching(/^not found: agent kagent\/nobody.*\(list_agents lists the agents there are\)$/),
    });
    const r = await refusal(f.service.getSession(f.ctx(), { name: 'chatty', sessionId: 'no-such-session' }));
    expect(r).toMatchObject({ status: 404 });
    expect(r.message).toContain('list_sessions');
  });

  it('is 409 naming the verdict for an agent that is not ready', async () => {
    // A release the chart refuses to install (written past the service's own toolset check): never ready.
    f.sandbox.store.create('helmreleases', {
      apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'broken', namespace: 'kagent' },
      spec: {
        interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' },
        values: { agent: { name: 'broken' }, modelConfig: { name: 'default-model-config' }, toolset: ['not-a-selector'] },
      },
    }, {});
    const r = await refusal(f.service.startSession(f.ctx(), { name: 'broken', message: 'hi' }));
    expect(r).toMatchObject({ code: 'conflict', status: 409 });
    expect(r.message).toMatch(/agent kagent\/broken is not ready \(verdict (progressing|failed)\)/);
  });

  it('says to resume a suspended agent, which waiting cannot make ready', async () => {
    await readyAgent(f, 'napping', 'Napping Bot');
    const release = f.sandbox.store.get('helmreleases', 'kagent', 'napping') as { spec: Record<string, unknown> };
    f.sandbox.store.update('helmreleases', { ...release, spec: { ...release.spec, suspend: true } } as never);
    const r = await refusal(f.service.startSession(f.ctx(), { name: 'napping', message: 'hi' }));
    expect(r).toMatchObject({ code: 'conflict', status: 409 });
    expect(r.message).toMatch(/^conflict: agent kagent\/napping is not ready \(verdict failed\): suspended: Flux does not reconcile it; /);
    expect(r.message).toMatch(/\. Resume its HelmRelease \(flux resume helmrelease\), then try again$/);
    expect(r.message).not.toContain('wait_for_agent');
  });

  it('is 502 naming the URL tried when the endpoint is not reachable', async () => {
    const dead = await startServiceFixture({
      sandbox: { controllers: true, reconcileDelayMs: 5 },
      sessions: () => ({ a2a: new KagentA2A({ baseUrl: 'http://127.0.0.1:9/api/a2a', fetch: globalThis.fetch }), oauth: false }),
    });
    try {
      await readyAgent(dead, 'lonely', 'Lonely');
      const r = await refusal(dead.service.startSession(dead.ctx(), { name: 'lonely', message: 'hi' }));
      expect(r).toMatchObject({ code: 'backend_error', status: 502 });
      expect(r.message).toContain('http://127.0.0.1:9/api/a2a/kagent/lonely/');
    } finally {
      await dead.close();
    }
  });
});

describe('sessions under OAuth', () => {
  it('presents the caller\'s id_token and user to the endpoint, never the ServiceAccount\'s token', async () => {
    await oauth.service.startSession(as(oauth, 'ann@example.com', 'ann-id-token'), { name: 'guarded', message: 'hi' });
    const seen = oauth.sandbox.a2aRequests;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((r) => r.authorization === 'Bearer ann-id-token' && r.userId === 'ann@example.com')).toBe(true);
    expect(seen.every((r) => !r.authorization?.includes(oauth.sandbox.serviceAccountToken))).toBe(true);
  });

  it('shows each caller only the sessions they started', async () => {
    const anns = await oauth.service.startSession(as(oauth, 'ann@example.com', 'ann-id-token'), { name: 'guarded', message: 'mine' });
    const bobs = await oauth.service.listSessions(as(oauth, 'bob@example.com', 'bob-id-token'), { name: 'guarded' });
    expect(bobs.sessions.map((s) => s.id)).not.toContain(anns.session.id);
    expect(await refusal(oauth.service.getSession(as(oauth, 'bob@example.com', 'bob-id-token'), { name: 'guarded', sessionId: anns.session.id })))
      .toMatchObject({ status: 404 });
  });

  it('is 401 for a request without a token', async () => {
    expect(await refusal(oauth.service.listSessions(oauth.ctx(), { name: 'guarded' }))).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('sends no credential without OAuth, even when the request carried one', async () => {
    const before = f.sandbox.a2aRequests.length;
    await f.service.listSessions(f.ctx({ token: 'should-not-leave' }), { name: 'chatty' });
    const after = f.sandbox.a2aRequests.slice(before);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => r.authorization === undefined && r.userId === undefined)).toBe(true);
  });
});

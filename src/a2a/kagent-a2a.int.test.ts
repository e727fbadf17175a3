/**
 * The A2A port against a loopback A2A server (node:http around the SDK's own request and JSON-RPC
 * handlers), for what the sandbox's streaming agents do not show: an agent whose card says it does
 * not stream is sent the message with returnImmediately and its task read back until it settles;
 * the card's advertised URL is not followed (the configured endpoint is spoken to, with the caller's
 * credential); kagent's 404 for an unknown agent is a 502 naming the URL.
 */
import { text } from 'node:stream/consumers';
import { A2A_VERSION_HEADER, AGENT_CARD_PATH, TaskState, type AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent, DefaultRequestHandler, defaultServerCallContextBuilder, InMemoryTaskStore, JsonRpcTransportHandler,
  UnauthenticatedUser, validateVersion, type AgentExecutor,
} from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.js';
import { header, sendCompactJson, sendText } from '../transport/http/exchange.js';
import { serveHandler, type ServedHandler } from '../../test/support/transport/serve-handler.js';
import { KagentA2A } from './kagent-a2a.js';

let served: ServedHandler;
let base: string;
const seen: { path: string; authorization?: string }[] = [];

// Answers a moment after the send returned: the task is still working when the client first sees it.
const slowExecutor: AgentExecutor = {
  async execute(ctx, bus) {
    bus.publish(AgentEvent.task({
      id: ctx.taskId, contextId: ctx.contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
    }));
    await new Promise((resolve) => setImmediate(resolve));
    bus.publish(AgentEvent.statusUpdate({
      taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined,
      status: {
        state: TaskState.TASK_STATE_COMPLETED, timestamp: new Date().toISOString(),
        message: { messageId: 'm', contextId: ctx.contextId, taskId: ctx.taskId, role: 2, metadata: undefined, extensions: [], referenceTaskIds: [], parts: [{ content: { $case: 'text', value: 'done' }, metadata: undefined, filename: '', mediaType: 'text/plain' }] },
      },
    }));
    bus.finished();
  },
  async cancelTask() {},
};

beforeAll(async () => {
  const card = (url: string): AgentCard => ({
    name: 'Quiet', description: 'does not stream', version: '1', supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined, documentationUrl: undefined, iconUrl: undefined,
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [], signatures: [],
  } as AgentCard);
  // The card advertises somewhere else entirely, as kagent's own loopback default would.
  const advertised = card('http://127.0.0.1:1/elsewhere/');
  const requestHandler = new DefaultRequestHandler(advertised, new InMemoryTaskStore(), slowExecutor);
  const jsonRpc = new JsonRpcTransportHandler(requestHandler);
  const agent = '/api/a2a/kagent/quiet';
  // As kagent's A2A server: this agent's card and its JSON-RPC POSTs, and a 404 naming any other path.
  served = await serveHandler(async (req, res) => {
    seen.push({ path: req.path, authorization: header(req, 'authorization') });
    if (req.method === 'GET' && req.path === `${agent}/${AGENT_CARD_PATH}`) {
      sendCompactJson(res, 200, advertised);
      return;
    }
    if (req.method !== 'POST' || (req.path !== agent && req.path !== `${agent}/`)) {
      sendText(res, 404, `Agent ${req.path} not found`);
      return;
    }
    const context = defaultServerCallContextBuilder({
      extensions: undefined, user: new UnauthenticatedUser(), headers: req.headers,
      requestedVersion: header(req, A2A_VERSION_HEADER),
    });
    validateVersion(context.requestedVersion, advertised, 'JSONRPC');
    const answer = await jsonRpc.handle(await text(req), context);
    if (Symbol.asyncIterator in answer) throw new Error('this agent does not stream: no stream was asked of it');
    sendCompactJson(res, 200, answer);
  });
  base = `${served.url}/api/a2a`;
});
afterAll(() => served.close());

describe('KagentA2A', () => {
  it('reads back the task of an agent that does not stream until it settles, at the configured endpoint only', async () => {
    const a2a = new KagentA2A({ baseUrl: `${base}/`, fetch: globalThis.fetch });
    const conversation = await a2a.open('kagent', 'quiet', { token: 'caller-token' });
    expect(conversation.card).toEqual({ name: 'Quiet', streaming: false, skills: [] });
    const outcome = await conversation.send({ contextId: 'ctx-1', text: 'hi' }, { deadline: AbortSignal.timeout(30_000) });
    expect(outcome.task).toMatchObject({ contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED', message: { parts: [{ text: 'done' }] } } });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((r) => r.path.startsWith('/api/a2a/kagent/quiet/') && r.authorization === 'Bearer caller-token')).toBe(true);
  });

  it('answers 502 naming the URL when kagent has no such agent', async () => {
    const a2a = new KagentA2A({ baseUrl: base, fetch: globalThis.fetch });
    const err = await a2a.open('kagent', 'missing', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(502);
    expect((err as AppError).message).toContain(`${base}/kagent/missing/`);
  });
});

/**
 * The sandbox's kagent A2A endpoint, driven by the A2A SDK's own client exactly as a user
 * would drive a kagent controller (ClientFactory from the agent's URL, then sendMessage,
 * sendMessageStream, getTask, listTasks): the card names the agent and says it streams;
 * the responder greets with the display name, lists the toolset, echoes, streams several
 * working updates and fails on `fail`; each user's tasks are kept apart; an agent that is
 * missing or not Ready is kagent's 404. Agents of both chart lines (kagent.dev and api.kagent.dev) are served.
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, helmRelease, startHarness, type Harness } from './harness.js';

let h: Harness;
const HR = { group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases' } as const;

async function readyAgent(name: string, values: Record<string, unknown>): Promise<void> {
  const body = helmRelease(name, 'kagent');
  body.spec.values = { agent: { name, ...values }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only', 'tool:get_pods'] };
  await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body });
  await eventually(async () => {
    const agent: any = h.sandbox.store.find('agents', 'kagent', name);
    return agent?.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') ? agent : undefined;
  }, 10_000, `Agent kagent/${name} Ready`);
}

const userMessage = (text: string, contextId = '', taskId = ''): Message => ({
  messageId: randomUUID(), contextId, taskId, role: Role.ROLE_USER, metadata: undefined, extensions: [],
  referenceTaskIds: [],
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
});
const send = (message: Message) => ({ tenant: '', message, configuration: undefined, metadata: undefined });
const replyText = (task: Task): string =>
  (task.status?.message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const asUser = (user: string) => ({ serviceParameters: { 'X-User-Id': user } });

async function client(name: string): Promise<Client> {
  return new ClientFactory().createFromUrl(`${h.sandbox.a2aUrl}/kagent/${name}/`);
}

beforeAll(async () => {
  h = await startHarness({ controllers: true, reconcileDelayMs: 10 });
  await readyAgent('talker', { displayName: 'Friendly Talker' });
});
afterAll(async () => {
  await h.sandbox.close();
});

describe('the sandbox A2A endpoint, through the SDK client', () => {
  it('serves a card that names the agent, its skill and streaming, at the kagent path', async () => {
    expect(h.sandbox.a2aUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/a2a$/);
    const card = await (await client('talker')).getAgentCard();
    expect(card.name).toBe('Friendly Talker');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces[0]?.url).toBe(`${h.sandbox.a2aUrl}/kagent/talker/`);
    expect(card.skills.map((s) => s.id)).toEqual(['converse']);
  });

  it('greets on the first turn, lists the toolset when asked and echoes on later turns of the same context', async () => {
    const a2a = await client('talker');
    const first = await a2a.sendMessage(send(userMessage('hi there')), asUser('ann')) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(replyText(first)).toBe('Hello, I am Friendly Talker. You said: hi there');
    const tools = await a2a.sendMessage(send(userMessage('Which tools do you have?', first.contextId)), asUser('ann')) as Task;
    expect(replyText(tools)).toBe('My toolset: preset:read-only, tool:get_pods');
    const echo = await a2a.sendMessage(send(userMessage('again', first.contextId)), asUser('ann')) as Task;
    expect(replyText(echo)).toBe('You said: again');
    const read = await a2a.getTask({ tenant: '', id: echo.id }, asUser('ann'));
    expect(read.contextId).toBe(first.contextId);
  });

  it('streams the task, several working updates, then the final answer', async () => {
    const a2a = await client('talker');
    const kinds: string[] = [];
    for await (const event of a2a.sendMessageStream(send(userMessage('stream please')), asUser('ann'))) {
      const payload = event.payload;
      if (payload?.$case === 'statusUpdate') kinds.push(`status:${TaskState[payload.value.status?.state ?? 0]}`);
      else if (payload) kinds.push(payload.$case);
    }
    expect(kinds[0]).toBe('task');
    expect(kinds.filter((k) => k === 'status:TASK_STATE_WORKING').length).toBeGreaterThanOrEqual(3);
    expect(kinds.at(-1)).toBe('status:TASK_STATE_COMPLETED');
  });

  it('fails the task on the message fail', async () => {
    const task = await (await client('talker')).sendMessage(send(userMessage('fail')), asUser('ann')) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });

  it('keeps each user\'s tasks apart, by X-User-Id as kagent reads it', async () => {
    const a2a = await client('talker');
    const mine = await a2a.sendMessage(send(userMessage('only mine')), asUser('bob')) as Task;
    const bobs = await a2a.listTasks({ tenant: '', contextId: mine.contextId, status: 0, pageToken: '', statusTimestampAfter: undefined }, asUser('bob'));
    expect(bobs.tasks.map((t) => t.id)).toEqual([mine.id]);
    const others = await a2a.listTasks({ tenant: '', contextId: mine.contextId, status: 0, pageToken: '', statusTimestampAfter: undefined }, asUser('carol'));
    expect(others.tasks).toEqual([]);
    expect(h.sandbox.a2aRequests.some((r) => r.userId === 'bob')).toBe(true);
  });

  it('serves a Ready agent of the chart 2.x line (an api.kagent.dev Agent on its Harness) as well', async () => {
    const body = helmRelease('harnessed', 'agents');
    body.spec.values = { agent: { name: 'harnessed', displayName: 'On a Harness', harness: 'kagent' }, toolset: ['preset:read-only'] };
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'agents', body });
    await eventually(async () => {
      const agent: any = h.sandbox.store.find('agents.api.kagent.dev', 'agents', 'harnessed');
      return agent?.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') ? agent : undefined;
    }, 10_000, 'Agent agents/harnessed Ready');
    const a2a = await new ClientFactory().createFromUrl(`${h.sandbox.a2aUrl}/agents/harnessed/`);
    const task = await a2a.sendMessage(send(userMessage('which tools')), asUser('ann')) as Task;
    expect(replyText(task)).toBe('My toolset: preset:read-only');
    expect((await a2a.getAgentCard()).name).toBe('On a Harness');
  });

  it('answers kagent\'s 404 for an agent that does not exist', async () => {
    const res = await fetch(`${h.sandbox.a2aUrl}/kagent/nobody/.well-known/agent-card.json`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Agent kagent/nobody not found\n');
  });
});

/**
 * One caller's conversation with one agent through the A2A SDK's client. A send streams
 * when the agent card says the agent streams (`SendStreamingMessage`), folding each event
 * into the task as it stands; otherwise it sends with `returnImmediately` and reads the
 * task back until it settles. Either way the wait ends at the deadline with the task as
 * it stood then: the agent carries on, and a later read shows the rest. Tasks and
 * messages leave here as proto3 JSON.
 */
import { randomUUID } from 'node:crypto';
import { Message, Task, TaskState, type Message as A2AMessage, type Task as A2ATask } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { A2AConversation, A2AJson, CardFacts, OutboundMessage, SendOptions,
  SendOutcome } from '../service/sessions/session-port.js';
import { a2aError } from './a2a-errors.js';
import { asObject } from '../core/json.js';

/** How often a task of a non-streaming agent is read back while it runs. */
export const POLL_MS = 500;
/** Tasks per ListTasks page (the A2A maximum page size is 100). */
const PAGE_SIZE = 100;

const SETTLED = new Set([
  TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED,
]);
const settled = (task: A2ATask): boolean => SETTLED.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
const json = (task: A2ATask): A2AJson => asObject(Task.toJSON(task));

/** A reply that came as a bare Message (no task): a completed turn of its own. */
const messageTask = (message: A2AMessage): A2ATask => ({
  id: message.taskId, contextId: message.contextId, artifacts: [], history: [], metadata: undefined,
  status: { state: TaskState.TASK_STATE_COMPLETED, message, timestamp: new Date().toISOString() },
});

function userMessage(message: OutboundMessage): A2AMessage {
  return Message.fromJSON({
    messageId: randomUUID(), contextId: message.contextId, role: 'ROLE_USER',
    parts: [{ text: message.text, mediaType: 'text/plain' }],
    ...(message.metadata ? { metadata: message.metadata } : {}),
  });
}

const aborted = (signal: AbortSignal): Promise<void> => new Promise((resolve) => {
  if (signal.aborted) resolve();
  else signal.addEventListener('abort', () => resolve(), { once: true });
});

export class SdkConversation implements A2AConversation {
  constructor(
    readonly url: string, readonly card: CardFacts, private readonly client: Client, private readonly what: string,
  ) {}

  async send(message: OutboundMessage, options: SendOptions): Promise<SendOutcome> {
    try {
      return this.card.streaming ? await this.stream(message, options) : await this.poll(message, options);
    } catch (err) {
      throw a2aError(err, this.what, this.url);
    }
  }

  async listTasks(contextId: string | undefined, limit: number): Promise<A2AJson[]> {
    const tasks: A2AJson[] = [];
    let pageToken = '';
    try {
      do {
        const page = await this.client.listTasks({
          tenant: '', contextId: contextId ?? '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: PAGE_SIZE,
          pageToken,
          statusTimestampAfter: undefined, includeArtifacts: true,
        });
        tasks.push(...page.tasks.map(json));
        pageToken = page.nextPageToken;
      } while (pageToken && tasks.length < limit);
    } catch (err) {
      throw a2aError(err, this.what, this.url);
    }
    return tasks.slice(0, limit);
  }

  private async stream(message: OutboundMessage, { deadline, onUpdate }: SendOptions): Promise<SendOutcome> {
    let task: A2ATask | undefined;
    let updates = 0;
    const request = { tenant: '', message: userMessage(message), configuration: undefined, metadata: message.metadata };
    try {
      for await (const event of this.client.sendMessageStream(request, { signal: deadline })) {
        const payload = event.payload;
        if (payload?.$case === 'task') task = payload.value;
        else if (payload?.$case === 'message') task = messageTask(payload.value);
        else if (payload?.$case === 'statusUpdate' && task) {
          task = { ...task, status: payload.value.status };
          updates += 1;
          onUpdate?.(json(task));
        } else if (payload?.$case === 'artifactUpdate' && task) {
          task = { ...task, artifacts: [...task.artifacts,
            ...(payload.value.artifact ? [payload.value.artifact] : [])] };
        }
      }
    } catch (err) {
      // The deadline ended the wait, not the turn: answer what arrived.
      if (!deadline.aborted || !task) throw err;
    }
    if (!task) throw new Error('the agent\'s stream ended before it named a task');
    return { task: json(task), updates };
  }

  private async poll(message: OutboundMessage, { deadline }: SendOptions): Promise<SendOutcome> {
    const request = {
      tenant: '', message: userMessage(message), metadata: message.metadata,
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true },
    };
    const first = await this.client.sendMessage(request, { signal: deadline });
    let task = 'status' in first ? first : messageTask(first);
    while (!settled(task) && task.id && !deadline.aborted) {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, POLL_MS).unref()), aborted(deadline)]);
      if (deadline.aborted) break;
      task = await this.client.getTask({ tenant: '', id: task.id });
    }
    return { task: json(task), updates: 0 };
  }
}

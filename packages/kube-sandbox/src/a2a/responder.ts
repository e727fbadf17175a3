/**
 * The deterministic stand-in for an agent's model: it answers from what the agent was built with, so a
 * conversation is testable without a model (greeting with the display name, "which tools" lists the
 * toolset, `fail` fails the task, `hold` keeps it working until cancelled, anything else is echoed).
 * Every turn is published as A2A events in order (task, `working` steps, final status), as a streaming agent.
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';

/** What the responder knows of its agent, read when each message arrives. */
export interface AgentFacts {
  readonly name: string;
  readonly displayName: string;
  readonly toolset: readonly string[];
}

/** The reply to one message of a conversation (`first`: the conversation's first turn). */
export function replyTo(text: string, facts: AgentFacts, first: boolean): { state: TaskState; reply: string } {
  const said = text.trim();
  if (said.toLowerCase() === 'fail') {
    return { state: TaskState.TASK_STATE_FAILED,
      reply: `${facts.displayName} could not answer: the message asked it to fail` };
  }
  if (/which tools/i.test(said)) {
    const tools = facts.toolset.length > 0 ? facts.toolset.join(', ') : 'no tools';
    return { state: TaskState.TASK_STATE_COMPLETED, reply: `My toolset: ${tools}` };
  }
  if (first) {
    return { state: TaskState.TASK_STATE_COMPLETED, reply: `Hello, I am ${facts.displayName}. You said: ${said}` };
  }
  return { state: TaskState.TASK_STATE_COMPLETED, reply: `You said: ${said}` };
}

/** Turns held open by `hold`, released by a cancel or when the endpoint closes. */
export class HeldTurns {
  private readonly waiting = new Map<string, () => void>();

  hold(taskId: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(taskId, resolve));
  }

  release(taskId: string): boolean {
    const resolve = this.waiting.get(taskId);
    this.waiting.delete(taskId);
    resolve?.();
    return resolve !== undefined;
  }

  releaseAll(): void {
    for (const taskId of [...this.waiting.keys()]) this.release(taskId);
  }
}

/** The steps a turn streams before its answer. */
export const WORKING_STEPS = ['reading the message', 'thinking', 'writing the answer'] as const;

const agentMessage = (text: string, contextId: string, taskId: string): Message => ({
  messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, metadata: undefined, extensions: [],
  referenceTaskIds: [],
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
});

const textOf = (message: Message): string =>
  message.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

/** An AgentExecutor over `facts` (undefined: the agent is gone, and the turn fails saying so). */
export function responder(
  facts: () => AgentFacts | undefined, isFirstTurn: (context: RequestContext) => Promise<boolean>, held: HeldTurns,
): AgentExecutor {
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const { taskId, contextId } = context;
      const now = (): string => new Date().toISOString();
      const task: Task = context.task ?? {
        id: taskId, contextId, artifacts: [], history: [context.userMessage],
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        metadata: context.userMessage.metadata,
      };
      bus.publish(AgentEvent.task(task));
      const agent = facts();
      if (textOf(context.userMessage).trim().toLowerCase() === 'hold') {
        bus.publish(AgentEvent.statusUpdate({
          taskId, contextId, metadata: undefined,
          status: { state: TaskState.TASK_STATE_WORKING,
            message: agentMessage('holding until cancelled', contextId, taskId), timestamp: now() },
        }));
        await held.hold(taskId);
        bus.publish(AgentEvent.statusUpdate({
          taskId, contextId, metadata: undefined,
          status: { state: TaskState.TASK_STATE_CANCELED, message: agentMessage('cancelled', contextId, taskId),
            timestamp: now() },
        }));
        bus.finished();
        return;
      }
      for (const step of WORKING_STEPS) {
        bus.publish(
          AgentEvent.statusUpdate({
            taskId, contextId, metadata: undefined,
            status: {
              state: TaskState.TASK_STATE_WORKING, message: agentMessage(step, contextId, taskId), timestamp: now(),
            },
          }),
        );
      }
      const answer = agent
        ? replyTo(textOf(context.userMessage), agent, await isFirstTurn(context))
        : { state: TaskState.TASK_STATE_FAILED, reply: 'the agent is no longer ready' };
      bus.publish(AgentEvent.statusUpdate({
        taskId, contextId, metadata: undefined,
        status: { state: answer.state, message: agentMessage(answer.reply, contextId, taskId), timestamp: now() },
      }));
      bus.finished();
    },
    // Only a held turn is still running: releasing it ends it as canceled.
    async cancelTask(taskId: string): Promise<void> {
      held.release(taskId);
    },
  };
}

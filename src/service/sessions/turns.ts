/**
 * Pure mapping from A2A tasks (proto3 JSON, as the agent reports them) to the session
 * wire shapes: a Turn is one task (its state, the text and parts of the agent's latest
 * status message, whether it reached a final state); a Session is the tasks of one
 * context, oldest first by status time, named by the `sessionName` its first message
 * carried in its metadata; `askedText` reads what the caller said to start a task.
 */
import type { Session, Turn } from '../../core/types.js';
import type { A2AJson } from './session-port.js';
import { asObject, optionalString } from '../../core/json.js';

/** The states after which a task changes no more, or waits on the caller (A2A TaskState). */
const SETTLED = new Set([
  'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED',
  'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED',
]);

export const taskState = (task: A2AJson): string =>
  optionalString(asObject(task.status).state) ?? 'TASK_STATE_UNSPECIFIED';
export const taskTime = (task: A2AJson): string | undefined => optionalString(asObject(task.status).timestamp);
export const isSettled = (task: A2AJson): boolean => SETTLED.has(taskState(task));

/** The agent's turn: one task as it stood when the wait for it ended. */
export function turnOf(task: A2AJson, updates: number): Turn {
  const message = asObject(asObject(task.status).message);
  const parts = Array.isArray(message.parts) ? message.parts.map(asObject) : [];
  return {
    taskId: optionalString(task.id) ?? '',
    state: taskState(task),
    complete: isSettled(task),
    text: parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join(''),
    parts,
    updates,
  };
}

/** Tasks oldest first: by status time, then as reported. */
export function oldestFirst(tasks: readonly A2AJson[]): A2AJson[] {
  return tasks.map((task, at) => ({ task, at }))
    .sort((a, b) => (taskTime(a.task) ?? '').localeCompare(taskTime(b.task) ?? '') || a.at - b.at)
    .map((x) => x.task);
}

/** The sessionName a task's metadata, or its first message's, carries. */
function nameOf(task: A2AJson): string | undefined {
  const history = Array.isArray(task.history) ? task.history.map(asObject) : [];
  return optionalString(asObject(task.metadata).sessionName)
    ?? optionalString(asObject(history[0]?.metadata).sessionName);
}

/** The session of one context from its tasks (any order); `fallbackName` when they name none. */
export function sessionOf(agent: Session['agent'], contextId: string, tasks: readonly A2AJson[],
  fallbackName?: string): Session {
  const ordered = oldestFirst(tasks);
  const first = ordered[0];
  const last = ordered.at(-1);
  const name = ordered.map(nameOf).find((n) => n !== undefined) ?? fallbackName;
  const session: Session = { id: contextId, agent, state: last ? taskState(last) : 'TASK_STATE_UNSPECIFIED',
    turns: ordered.length };
  if (name !== undefined) session.name = name;
  const createdAt = first && taskTime(first);
  const updatedAt = last && taskTime(last);
  if (createdAt) session.createdAt = createdAt;
  if (updatedAt) session.updatedAt = updatedAt;
  return session;
}

/** The sessions of a list of tasks: one per context, newest activity first. */
export function sessionsOf(agent: Session['agent'], tasks: readonly A2AJson[]): Session[] {
  const byContext = new Map<string, A2AJson[]>();
  for (const task of tasks) {
    const contextId = optionalString(task.contextId);
    if (!contextId) continue;
    byContext.set(contextId, [...(byContext.get(contextId) ?? []), task]);
  }
  return [...byContext].map(([id, list]) => sessionOf(agent, id, list))
    .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
}

/**
 * The text of the caller's message that started `task` (the first user message of its history), or
 * undefined when the agent reported no history to read it from.
 */
export function askedText(task: A2AJson): string | undefined {
  const history = Array.isArray(task.history) ? task.history.map(asObject) : [];
  const asked = history.find((message) => message.role === 'ROLE_USER');
  if (!asked || !Array.isArray(asked.parts)) return undefined;
  return asked.parts.map(asObject).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

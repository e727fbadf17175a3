import { describe, expect, it } from 'vitest';
import { askedText, oldestFirst, sessionOf, sessionsOf, turnOf } from './turns.js';

const agent = { namespace: 'kagent', name: 'sre' };
const task = (id: string, contextId: string, state: string, timestamp: string, extra: Record<string, unknown> = {}) =>
  ({ id, contextId, status: { state, timestamp, message: { role: 'ROLE_AGENT', parts: [{ text: `answer ${id}` }, { data: { n: 1 } }] } }, ...extra });

describe('turnOf', () => {
  it.each([
    ['TASK_STATE_COMPLETED', true], ['TASK_STATE_FAILED', true], ['TASK_STATE_INPUT_REQUIRED', true],
    ['TASK_STATE_WORKING', false], ['TASK_STATE_SUBMITTED', false],
  ])('takes a task in %s as complete: %s', (state, complete) => {
    expect(turnOf(task('t', 'c', state, '2026-01-01T00:00:00Z'), 2)).toEqual({
      taskId: 't', state, complete, text: 'answer t', parts: [{ text: 'answer t' }, { data: { n: 1 } }], updates: 2,
    });
  });

  it('answers an empty turn for a task without a status message', () => {
    expect(turnOf({ id: 't' }, 0)).toEqual({ taskId: 't', state: 'TASK_STATE_UNSPECIFIED', complete: false, text: '', parts: [], updates: 0 });
  });
});

describe('sessions from tasks', () => {
  const tasks = [
    task('b', 'one', 'TASK_STATE_COMPLETED', '2026-01-01T00:02:00Z'),
    task('a', 'one', 'TASK_STATE_COMPLETED', '2026-01-01T00:01:00Z', { history: [{ metadata: { sessionName: 'triage' } }] }),
    task('c', 'two', 'TASK_STATE_FAILED', '2026-01-01T00:03:00Z'),
  ];

  it('orders a context\'s tasks oldest first by status time', () => {
    expect(oldestFirst(tasks).map((t) => t.id)).toEqual(['a', 'b', 'c']);
  });

  it('names a session from its first message\'s sessionName and spans its tasks\' times', () => {
    expect(sessionOf(agent, 'one', tasks.slice(0, 2))).toEqual({
      id: 'one', agent, name: 'triage', state: 'TASK_STATE_COMPLETED', turns: 2, createdAt: '2026-01-01T00:01:00Z', updatedAt: '2026-01-01T00:02:00Z',
    });
  });

  it('groups tasks by context, newest activity first, and skips a task without a context', () => {
    expect(sessionsOf(agent, [...tasks, { id: 'orphan' }]).map((s) => [s.id, s.turns, s.state])).toEqual([
      ['two', 1, 'TASK_STATE_FAILED'], ['one', 2, 'TASK_STATE_COMPLETED'],
    ]);
  });
});

describe('askedText', () => {
  it('reads the caller\'s first message of a task, past the agent\'s', () => {
    const history = [
      { role: 'ROLE_USER', parts: [{ text: 'first ' }, { data: {} }, { text: 'question' }] },
      { role: 'ROLE_AGENT', parts: [{ text: 'thinking' }] },
      { role: 'ROLE_USER', parts: [{ text: 'later' }] },
    ];
    expect(askedText({ id: 't', history: [history[1], ...history] })).toBe('first question');
  });

  it('is undefined when the agent reports no history to read it from', () => {
    expect(askedText({ id: 't' })).toBeUndefined();
    expect(askedText({ id: 't', history: [{ role: 'ROLE_AGENT', parts: [{ text: 'hi' }] }] })).toBeUndefined();
  });
});

/**
 * Records every server that starts listening and every child process spawned in this
 * process, through Node's diagnostics channels (net.server.listen, child_process): they
 * report each listen and each ChildProcess without replacing any function. Subscribed once
 * per process, as vitest's reused workers load set-up files again for every test file.
 */
import { subscribe, tracingChannel } from 'node:diagnostics_channel';

export interface StartLog {
  /** What started since the last `clear()`: 'a server (listen)' or 'a child process'. */
  readonly list: string[];
  clear(): void;
}

const KEY = Symbol.for('agent-manager.start-watch');
const holder = globalThis as unknown as Record<symbol, StartLog | undefined>;

export function watchStarts(): StartLog {
  const existing = holder[KEY];
  if (existing) return existing;
  const list: string[] = [];
  const log: StartLog = {
    list,
    clear: () => {
      list.length = 0;
    },
  };
  holder[KEY] = log;
  const none = (): undefined => undefined;
  tracingChannel('net.server.listen').subscribe({
    asyncStart: () => list.push('a server (listen)'), start: none, end: none, asyncEnd: none, error: none,
  });
  subscribe('child_process', () => list.push('a child process'));
  return log;
}

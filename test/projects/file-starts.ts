/**
 * What one test file of a shared integration worker started: its direct forks and its
 * servers, recorded through Node's diagnostics channels (child_process, net.server.listen)
 * without replacing any function, and what is wrong with them when the file ends.
 */
import { subscribe, tracingChannel } from 'node:diagnostics_channel';
import type { Server } from 'node:net';

/**
 * The ports of servers a worker keeps for all its files (the shared sandbox of
 * test/support/service/shared-fixture.ts); a file that started one is not blamed for it.
 */
export const WORKER_SERVERS = Symbol.for('agent-manager.worker-servers');

/** Forks one file may make itself: a worker grown to ~1 GB pays ~7 ms a fork, a fresh one ~2 ms. */
export const DIRECT_FORK_LIMIT = 60;

export interface FileStarts { forks: number; servers: Set<Server> }

/** The problems of a file that ends with `starts`; empty when it closed what it started. */
export function startProblems(starts: FileStarts, limit = DIRECT_FORK_LIMIT): string[] {
  const problems: string[] = [];
  if (starts.forks > limit) {
    problems.push(`this file forked ${starts.forks} child processes from a shared worker (limit ${limit}): `
      + 'run short-lived tools through test/support/small-spawn.ts');
  }
  const kept = (globalThis as unknown as Record<symbol, Set<number> | undefined>)[WORKER_SERVERS] ?? new Set();
  const open = [...starts.servers].filter((server) => {
    const address = server.address();
    return server.listening && !(typeof address === 'object' && address !== null && kept.has(address.port));
  });
  if (open.length > 0) {
    const where = open.map((server) => JSON.stringify(server.address())).join(', ');
    problems.push(`this file left ${open.length} server(s) listening (${where}): close them in afterAll`);
  }
  return problems;
}

// Subscribed once per worker: set-up files run again for every file of a reused worker.
const KEY = Symbol.for('agent-manager.file-starts');
const holder = globalThis as unknown as Record<symbol, FileStarts | undefined>;

/** The worker's record, subscribed on first use. */
export function fileStarts(): FileStarts {
  const existing = holder[KEY];
  if (existing) return existing;
  const starts: FileStarts = { forks: 0, servers: new Set() };
  holder[KEY] = starts;
  subscribe('child_process', () => {
    starts.forks += 1;
  });
  const none = (): undefined => undefined;
  tracingChannel<unknown, { server?: Server }>('net.server.listen').subscribe({
    // The server is on the context from asyncStart on (Node publishes no start for listen).
    asyncStart: (context) => {
      if (context.server) starts.servers.add(context.server);
    },
    start: none, end: none, asyncEnd: none, error: none,
  });
  return starts;
}

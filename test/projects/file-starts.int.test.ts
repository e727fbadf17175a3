import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fileStarts, startProblems, type FileStarts } from './file-starts.js';

describe('the shared integration worker guard', () => {
  it('records a server this file starts and names it while it listens, not once it is closed', async () => {
    const starts: FileStarts = { forks: 0, servers: new Set(fileStarts().servers) };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const recorded = fileStarts().servers.has(server);
    starts.servers.add(server);
    const whileOpen = startProblems(starts);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(recorded).toBe(true);
    expect(whileOpen.join()).toMatch(/left 1 server\(s\) listening .*"port":\d+.*close them in afterAll/);
    expect(startProblems(starts)).toEqual([]);
  });

  it('counts the child processes this file forks and refuses more than the limit', async () => {
    const before = fileStarts().forks;
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await once(child, 'exit');
    expect(fileStarts().forks).toBe(before + 1);
    expect(startProblems({ forks: 3, servers: new Set() }, 2).join()).toMatch(/forked 3 child processes .*small-spawn/);
    expect(startProblems({ forks: 2, servers: new Set() }, 2)).toEqual([]);
  });
});

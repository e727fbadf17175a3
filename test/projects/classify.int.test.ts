/**
 * The split into the unit and integration projects: decided from a file's source and the
 * test helpers it imports, and watched at run time by the unit project's guard.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyTests, startersOf } from './classify.js';
import { watchStarts } from './start-watch.js';

const REPO = join(import.meta.dirname, '..', '..');

describe('the project of a test file', () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-manager-classify-'));
  const write = (rel: string, text: string): string => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a file on in-memory fakes is a unit test', () => {
    const file = write('src/core/pure.test.ts', "import { parse } from './pure.js';\nit('x', () => parse(''));\n");
    expect(startersOf(root, file)).toEqual([]);
  });

  it('a starter in a test helper counts for the file that imports it, through further helpers', () => {
    write('test/area/stack.ts', "export { startAll } from './inner.js';\n");
    write('test/area/inner.ts', "import { startSandbox } from '@agent-manager/kube-sandbox';\nexport const startAll = () => startSandbox();\n");
    const file = write('test/area/flow.test.ts', "import { startAll } from './stack.js';\n");
    expect(startersOf(root, file)).toEqual(['startSandbox']);
  });

  it('a product module is not searched: the unit guard catches a test that makes it listen', () => {
    write('src/net/http-server.ts', "import { createServer } from 'node:http';\nexport const s = () => createServer().listen(0);\n");
    const file = write('src/net/addr.test.ts', "import { s } from './server.js';\nit('x', () => s);\n");
    expect(startersOf(root, file)).toEqual([]);
  });

  it('in this repository, every test file is named for its project: `*.int.test.ts` exactly when it starts something', () => {
    const { unit, integration } = classifyTests(REPO);
    const misnamed = [
      ...integration.filter((file) => !file.endsWith('.int.test.ts')).map((file) => `${file} starts a server or a process: name it *.int.test.ts`),
      ...unit.filter((file) => file.endsWith('.int.test.ts')).map((file) => `${file} starts nothing: name it *.test.ts (a unit test)`),
    ];
    expect(misnamed).toEqual([]);
    expect(integration).toEqual(expect.arrayContaining(['src/service/writes/create.int.test.ts', 'test/chart-package/chart-render.int.test.ts']));
    expect(unit).toContain('src/core/kube-time.test.ts');
  });
});

describe('the unit project guard', () => {
  it('records a server that listens and a child process that is spawned', async () => {
    const log = watchStarts();
    log.clear();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(log.list).toEqual(['a server (listen)']);
    await new Promise((resolve) => spawn(process.execPath, ['-e', '']).once('exit', resolve));
    expect(log.list).toEqual(['a server (listen)', 'a child process']);
  });
});

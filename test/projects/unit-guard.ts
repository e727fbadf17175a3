/**
 * Set-up file of the `unit` project: a unit test file that starts a server or a child
 * process fails, naming what it started, so the split of test/projects/classify.ts stays
 * true (a unit file never makes a reused, grown worker fork or listen).
 */
import { afterAll, beforeAll } from 'vitest';
import { watchStarts } from './start-watch.js';

const started = watchStarts();

beforeAll(() => {
  started.clear();
});

afterAll(() => {
  if (started.list.length === 0) return;
  const what = [...new Set(started.list)].join(' and ');
  started.clear();
  throw new Error(`this unit test file started ${what}: start it with a starter test/projects/classify.ts `
    + 'knows (or add yours to its STARTERS) so the file runs in the integration project');
});

/**
 * Set-up file of the `integration` project, whose files share reused workers: a file that
 * forks more than a few dozen processes itself, or ends with a server still listening, fails
 * (test/projects/file-starts.ts), so no file slows or disturbs the next one in its worker.
 */
import { afterAll, beforeAll } from 'vitest';
import { fileStarts, startProblems } from './file-starts.js';

const starts = fileStarts();

beforeAll(() => {
  starts.forks = 0;
  starts.servers.clear();
});

afterAll(() => {
  const problems = startProblems(starts);
  starts.forks = 0;
  starts.servers.clear();
  if (problems.length > 0) throw new Error(problems.join('; '));
});

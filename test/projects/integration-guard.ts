/**
 * Set-up file of the `integration` project, whose files share reused workers: a file that
 * forks more than a few dozen processes itself, or ends with a server still listening, fails
 * (test/projects/file-starts.ts), so no file slows or disturbs the next one in its worker.
 * A file that rendered the chart lints what it rendered when its tests are done: a set-up
 * file's hooks run for every file, while a shared module's would run for the first one only.
 */
import { afterAll, beforeAll } from 'vitest';
import { lintRendered } from '../chart-package/helm-lint.js';
import { fileStarts, startProblems } from './file-starts.js';

const starts = fileStarts();

beforeAll(() => {
  starts.forks = 0;
  starts.servers.clear();
});

afterAll(() => {
  lintRendered();
}, 120_000);

afterAll(() => {
  const problems = startProblems(starts);
  starts.forks = 0;
  starts.servers.clear();
  if (problems.length > 0) throw new Error(problems.join('; '));
});

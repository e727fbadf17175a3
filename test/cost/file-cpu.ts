/**
 * Set-up file of a measured run only (test/cost/vitest.cost.config.ts): each test file's CPU in
 * its worker, from this file's evaluation before it to its last hook, appended to
 * $COST_FILES_LOG, and the file's name in COST_FILE for the tool shims' lines.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, beforeEach } from 'vitest';

const state = globalThis as { costStart?: NodeJS.CpuUsage; costFile?: string };
state.costStart = process.cpuUsage();
state.costFile = undefined;

beforeEach(({ task }) => {
  if (state.costFile) return;
  state.costFile = task.file.filepath.replace(`${process.cwd()}/`, '');
  process.env.COST_FILE = state.costFile;
});

afterAll(() => {
  const log = process.env.COST_FILES_LOG;
  const used = process.cpuUsage(state.costStart);
  if (log) appendFileSync(log, `${process.pid} ${state.costFile ?? '?'} ${((used.user + used.system) / 1e6).toFixed(2)}\n`);
});

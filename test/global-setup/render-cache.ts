/**
 * Vitest global set-up: a folder, for this run only, where the chart suites keep what the
 * real helm rendered for a set of values (test/chart-package/helm.ts), so the files that
 * render the same values in different workers run helm once. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RENDER_CACHE_ENV = 'AGENT_MANAGER_TEST_RENDERS';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'agent-manager-renders-'));
  process.env[RENDER_CACHE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

/**
 * Makes sure dist/ is built from the current sources before the reliability suite runs:
 * the shutdown suite starts `node dist/main.js serve` as a child process. Builds when
 * dist/main.js is missing or any source file is newer than it; a failed build is fatal
 * only when there is no dist/ to fall back on. Picks the run's seed once, for every file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budget, rerun } from './support/budget.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  // The workers inherit the environment: all files of this run then share one seed.
  const b = budget();
  process.env.RELIABILITY_SEED = String(b.seed);
  console.log(`reliability: budget ${b.name}, seed ${b.seed} (to repeat: ${rerun(b)})`);
  const entry = join(root, 'dist', 'main.js');
  const stale = !existsSync(entry) || newestSource(join(root, 'src')) > statSync(entry).mtimeMs;
  if (!stale) return;
  console.log('reliability: building dist/ (missing or older than src/)');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8' });
  if (build.status === 0) return;
  const output = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim();
  if (!existsSync(entry)) throw new Error(`reliability: npm run build failed and there is no dist/ to use:\n${output}`);
  console.warn(`reliability: npm run build failed; using the existing dist/:\n${output.slice(0, 2000)}`);
}

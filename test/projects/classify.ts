/**
 * Which vitest project a test file belongs in, read from its source: `integration` when it, or a
 * test helper it imports (any local module under test/ or a package's test/), starts a server or a
 * process (STARTERS below); every other file is `unit`. The file's name must say the same
 * (`*.int.test.ts`): test/projects/classify.int.test.ts checks it, and each project's guard
 * (test/projects/unit-guard.ts, integration-guard.ts) fails a file that breaks its rule as it runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Source text that starts a server or a process, and the name a maintainer knows it by. */
export const STARTERS: readonly [RegExp, string][] = [
  [/\bnode:child_process\b|from 'child_process'/, 'child_process'],
  [/\bsmall-spawn(?:\.js)?'/, 'small-spawn'],
  [/\bstartSandbox\s*\(/, 'startSandbox'],
  [/\bstartServiceFixture\s*\(/, 'startServiceFixture'],
  [/\bstartHttpServer\s*\(/, 'startHttpServer'],
  [/\brunServe\s*\(/, 'runServe'],
  [/\brunSandbox\s*\(/, 'runSandbox'],
  [/\brunCli\s*\(/, 'runCli'],
  [/\bstartA2AEndpoint\s*\(/, 'startA2AEndpoint'],
  [/\bstartMuster\s*\(/, 'startMuster'],
  [/\bstartWorkloads\s*\(/, 'startWorkloads'],
  [/\.listen\s*\(/, 'listen'],
  [/\bcreateServer\s*\(/, 'createServer'],
];

const IMPORT = /(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

/** A helper only tests use: its starters count for the files importing it. */
function isTestHelper(rel: string): boolean {
  return rel.startsWith('test/') || /^packages\/[^/]+\/test\//.test(rel);
}

function localImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (!spec) continue;
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (existsSync(target)) found.push(target);
  }
  return found;
}

/** The starters `file` uses itself or through the test helpers it imports (empty: a unit file). */
export function startersOf(root: string, file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const own = STARTERS.filter(([pattern]) => pattern.test(text)).map(([, name]) => name);
  const helpers = localImports(file, text).filter((dep) => isTestHelper(relative(root, dep)));
  return [...new Set([...own, ...helpers.flatMap((dep) => startersOf(root, dep, seen))])];
}

function testFiles(root: string): string[] {
  const dirs = ['src', 'test', ...readdirSync(join(root, 'packages')).flatMap((p) => [`packages/${p}/src`, `packages/${p}/test`])];
  return dirs.filter((dir) => existsSync(join(root, dir))).flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts') && !name.split('/').includes('node_modules'))
      .map((name) => `${dir}/${name}`));
}

/** Every test file's project, repository-relative paths sorted. */
export function classifyTests(root: string): { unit: string[]; integration: string[] } {
  const unit: string[] = [];
  const integration: string[] = [];
  for (const rel of testFiles(root).sort()) {
    (startersOf(root, join(root, rel)).length > 0 ? integration : unit).push(rel);
  }
  return { unit, integration };
}

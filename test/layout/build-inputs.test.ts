/**
 * The build's skip of TypeScript (scripts/build.mjs) rests on one hash of what TypeScript 7's
 * `tsc -b` reads: it must change with any source or tsconfig file, and with nothing else.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without declarations
import { buildInputsHash, buildInputsStats } from '../../scripts/build-inputs.mjs';

const hashOf = buildInputsHash as (root: string, projects: string[], files?: string[]) => string;
type Stats = { digest: string; racy: boolean; files: string[] };
const statsOf = buildInputsStats as (root: string, projects: string[]) => Stats;
const root = mkdtempSync(join(tmpdir(), 'build-inputs-'));
const projects = ['packages/kube-sandbox/tsconfig.build.json', 'tsconfig.build.json'];
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
for (const file of ['tsconfig.json', ...projects, 'packages/kube-sandbox/tsconfig.json']) write(file, '{}');
write('src/core/a.ts', 'export const a = 1;\n');
write('packages/kube-sandbox/src/b.ts', 'export const b = 1;\n');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('buildInputsHash', () => {
  it('stays the same while nothing tsc reads changed, whatever else does', () => {
    const before = hashOf(root, projects);
    expect(hashOf(root, projects, statsOf(root, projects).files)).toBe(before);
    write('dist/core/a.js', 'export const a = 1;\n');
    write('README.md', 'text');
    expect(hashOf(root, projects)).toBe(before);
  });

  it.each([
    ['a product source', 'src/core/a.ts', 'export const a = 2;\n'],
    ['a new product file', 'src/core/c.ts', ''],
    ['a sandbox source', 'packages/kube-sandbox/src/b.ts', 'export const b = 2;\n'],
    ['a tsconfig file', 'tsconfig.build.json', '{"compilerOptions":{}}'],
  ])('changes with %s', (_what, path, text) => {
    const before = hashOf(root, projects);
    write(path, text);
    expect(hashOf(root, projects)).not.toBe(before);
  });
});

describe('buildInputsStats', () => {
  it('changes with a file\'s modification time, and is racy while a file changed in the last two seconds', () => {
    const old = new Date(Date.now() - 60_000);
    const aged = () => {
      for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), old, old);
      }
    };
    aged();
    const before = statsOf(root, projects);
    expect(before.racy).toBe(false);
    write('src/core/a.ts', 'export const a = 3;\n');
    const after = statsOf(root, projects);
    expect(after.racy).toBe(true);
    expect(after.digest).not.toBe(before.digest);
    aged();
    const settled = statsOf(root, projects);
    expect(settled.racy).toBe(false);
    expect(settled.digest).toBe(statsOf(root, projects).digest);
    expect(settled.files).toContain('src/core/a.ts');
    expect(settled.files).not.toContain('README.md');
  });
});

/**
 * docs/architecture.md's table of features and layers matches the tree: every path it names
 * exists under src/, and every feature folder of core/, service/ and kube/, and every adapter
 * folder of src/, appears in it, so the table cannot fall behind a move or a new feature.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Features and layers'), doc.indexOf('## Wire shapes'));
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| feature'));
const named = rows.flatMap((row) => [...row.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));

const folders = (dir: string): string[] => readdirSync(join(root, 'src', dir), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'testdata').map((entry) => `${dir}/${entry.name}/`);
const ADAPTERS = ['a2a', 'chart', 'config', 'github', 'identity', 'kube', 'log', 'metrics', 'muster', 'net',
  'observability', 'skills', 'tracing'];

describe('the table of features and layers', () => {
  it('has a row for each feature, with four layers', () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row.split('|').length, row).toBe(7);
  });

  it('names only paths that exist under src/', () => {
    expect(named.filter((path) => !existsSync(join(root, 'src', path)))).toEqual([]);
  });

  it('names every feature folder of core/, service/, kube/ and transport/, and every adapter folder', () => {
    const expected = [
      ...folders('core'), ...folders('service'), ...folders('kube'), ...folders('transport').filter((f) => /input|descriptions/.test(f)),
      ...ADAPTERS.map((name) => `${name}/`),
    ];
    expect(expected.filter((folder) => !named.some((path) => path === folder || path.startsWith(folder)))).toEqual([]);
  });

  it('lists as adapters exactly the folders of src/ that are neither core, service nor transport', () => {
    const top = readdirSync(join(root, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory())
      .map((entry) => entry.name).filter((name) => !['core', 'service', 'transport'].includes(name));
    expect(top.sort()).toEqual([...ADAPTERS].sort());
  });
});

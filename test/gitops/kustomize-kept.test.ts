/**
 * A kept `kubectl kustomize` output is read back only for the very tree, directory and kubectl
 * it was printed for, and entries no run has used for a day are removed.
 */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepOutput, keptOutput, kustomizeKey } from './kustomize-kept.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree() {
  dir = mkdtempSync(join(tmpdir(), 'kustomize-kept-test-'));
  const root = join(dir, 'tree');
  mkdirSync(join(root, 'apps', 'team'), { recursive: true });
  writeFileSync(join(root, 'apps', 'team', 'kustomization.yaml'), 'resources: [agent.yaml]\n');
  writeFileSync(join(root, 'apps', 'team', 'agent.yaml'), 'kind: HelmRelease\n');
  const kubectl = join(dir, 'kubectl');
  writeFileSync(kubectl, 'binary');
  return { root, kubectl };
}

describe('kept kustomize outputs', () => {
  it('are keyed by every file of the tree, the directory and kubectl', () => {
    const { root, kubectl } = tree();
    const keys = [kustomizeKey(root, 'apps/team', kubectl)];
    expect(kustomizeKey(root, 'apps/team', kubectl)).toBe(keys[0]);
    keys.push(kustomizeKey(root, 'apps', kubectl));
    writeFileSync(join(root, 'apps', 'team', 'agent.yaml'), 'kind: HelmRelease\nmetadata: {}\n');
    keys.push(kustomizeKey(root, 'apps/team', kubectl));
    writeFileSync(join(root, 'apps', 'base.yaml'), '');
    keys.push(kustomizeKey(root, 'apps/team', kubectl));
    writeFileSync(kubectl, 'another binary');
    keys.push(kustomizeKey(root, 'apps/team', kubectl));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('read back what was kept, and nothing for another key', () => {
    tree();
    const store = join(dir, 'store');
    expect(keptOutput('a', store)).toBeUndefined();
    keepOutput('a', 'kind: HelmRelease\n', store);
    expect(keptOutput('a', store)).toBe('kind: HelmRelease\n');
    expect(keptOutput('b', store)).toBeUndefined();
  });

  it('lose the entries no run has used for a day', () => {
    tree();
    const store = join(dir, 'store');
    const longAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    keepOutput('old', 'x', store);
    keepOutput('recent', 'y', store);
    utimesSync(join(store, 'old.yaml'), longAgo, longAgo);
    keepOutput('new', 'z', store);
    expect(readdirSync(store).sort()).toEqual(['new.yaml', 'recent.yaml']);
  });
});

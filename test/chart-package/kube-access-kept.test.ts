/**
 * The derived access is kept by a hash of what the derivation reads: an edit, a new file or a
 * removed one in the project's src, or other resource types, give another key, so a later run
 * never reads an answer derived from other code.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { derivationKey } from './kube-access-kept.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the key of a derivation', () => {
  it('stays while the code stays, and changes with an edit, a new or removed file, the tsconfig or the resource types', () => {
    root = mkdtempSync(join(tmpdir(), 'kube-access-key-'));
    mkdirSync(join(root, 'src', 'kube'), { recursive: true });
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    writeFileSync(join(root, 'src', 'kube', 'port.ts'), 'export interface KubePort {}');
    const types = { agent: { group: 'kagent.dev', resource: 'agents' } };
    const keys = [derivationKey(root, types)];
    expect(derivationKey(root, types)).toBe(keys[0]);
    writeFileSync(join(root, 'src', 'kube', 'port.ts'), 'export interface KubePort { get(): void }');
    keys.push(derivationKey(root, types));
    writeFileSync(join(root, 'src', 'kube', 'adapter.ts'), 'export {}');
    keys.push(derivationKey(root, types));
    rmSync(join(root, 'src', 'kube', 'adapter.ts'));
    writeFileSync(join(root, 'src', 'kube', 'other.ts'), 'export {}');
    keys.push(derivationKey(root, types));
    writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{}}');
    keys.push(derivationKey(root, types));
    keys.push(derivationKey(root, { agent: { group: 'api.kagent.dev', resource: 'agents' } }));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

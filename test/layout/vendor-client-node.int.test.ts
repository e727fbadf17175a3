/**
 * The built service's bundled @kubernetes/client-node (scripts/vendor-client-node.mjs): it must
 * hold every name the build imports, and only client-node's own files, and leave a build it
 * cannot follow unbundled with an error rather than ship a bundle that lacks a name.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { smallSpawn } from '../support/small-spawn.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'vendor-client-node.mjs');
// Inside the repository, so the bundle's imports of client-node's dependencies resolve.
mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
const scratch = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'vendor-client-node-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function build(name: string, files: Record<string, string>): string {
  const dist = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dist, path, '..'), { recursive: true });
    writeFileSync(join(dist, path), text);
  }
  return dist;
}

/** Where Node's lookup (node_modules folders, upwards) finds package `name` from `dir`. */
function packageDir(name: string, dir: string): string | undefined {
  for (; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name))) return realpathSync(join(dir, 'node_modules', name));
    if (dirname(dir) === dir) return undefined;
  }
}

const vendor = async (dist: string) => {
  const run = await smallSpawn(process.execPath, [SCRIPT, dist], { timeoutMs: 60_000 });
  return { code: run.code, output: `${run.stdout.toString()}${run.stderr.toString()}` };
};

describe('the bundled Kubernetes client of the build', () => {
  const dist = build('dist', {
    'main.js': "import { KubeConfig, Watch as ListWatch } from '@kubernetes/client-node';\n"
      + "export { ApiException } from '@kubernetes/client-node';\nexport { KubeConfig, ListWatch };\n",
    'kube/errors.js': 'import { ApiException } from "@kubernetes/client-node";\nexport const E = ApiException;\n',
    'other.js': 'export const unrelated = 1;\n',
  });

  it('points every import of the package at one bundle holding exactly the names imported', async () => {
    const run = await vendor(dist);
    expect(run.output).toContain('3 names for 2 files bundled into');
    expect(run.code).toBe(0);
    expect(readFileSync(join(dist, 'main.js'), 'utf8')).toContain("from './vendor/kubernetes-client-node.js'");
    expect(readFileSync(join(dist, 'kube/errors.js'), 'utf8')).toContain("from '../vendor/kubernetes-client-node.js'");
    expect(readFileSync(join(dist, 'other.js'), 'utf8')).toBe('export const unrelated = 1;\n');
    const stamp = readFileSync(join(dist, 'vendor', '.inputs'), 'utf8').split('\n');
    expect(stamp[0]).toMatch(/^@kubernetes\/client-node@\d+\.\d+\.\d+ esbuild@/);
    expect(stamp.slice(1).filter(Boolean)).toEqual(['ApiException', 'KubeConfig', 'Watch']);
  });

  it('gives the rewritten modules working classes, with the dependencies production keeps still imported from node_modules', async () => {
    const script = `const m = await import(${JSON.stringify(join(dist, 'main.js'))});
const kc = new m.KubeConfig();
kc.loadFromString('{clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}], users: [{name: u, user: {token: t}}], '
  + 'contexts: [{name: x, context: {cluster: c, user: u}}], current-context: x}');
console.log(kc.getCurrentCluster().server, typeof m.ListWatch, new m.ApiException(404, 'gone', {}, {}).code);`;
    const run = await smallSpawn(process.execPath, ['--input-type=module', '-e', script], { timeoutMs: 30_000 });
    expect(run.stderr.toString()).toBe('');
    expect(run.stdout.toString().trim()).toBe('https://127.0.0.1:1 function 404');
    const bundle = readFileSync(join(dist, 'vendor', 'kubernetes-client-node.js'), 'utf8');
    expect(bundle).toMatch(/^import .* from "undici";$/m);
  });

  it('leaves a package an import only where the bundle finds the copy client-node itself finds', () => {
    const bundle = readFileSync(join(dist, 'vendor', 'kubernetes-client-node.js'), 'utf8');
    const imported = [...bundle.matchAll(/^import .* from "([^".][^"]*)";$/gm)].map((m) => m[1]!)
      .filter((spec) => !isBuiltin(spec));
    expect(imported.length).toBeGreaterThan(3);
    const clientNode = join(ROOT, 'node_modules', '@kubernetes', 'client-node', 'dist');
    for (const spec of new Set(imported)) {
      const name = spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
      expect(packageDir(name, join(dist, 'vendor')), spec).toBe(packageDir(name, clientNode));
    }
  });

  it('finds the names again in a build it already rewrote, and neither rewrites nor bundles twice', async () => {
    const before = readFileSync(join(dist, 'main.js'), 'utf8');
    const bundled = statSync(join(dist, 'vendor', 'kubernetes-client-node.js')).mtimeMs;
    const run = await vendor(dist);
    expect(run.code).toBe(0);
    expect(run.output).toContain('3 names for 2 files already in');
    expect(readFileSync(join(dist, 'main.js'), 'utf8')).toBe(before);
    expect(statSync(join(dist, 'vendor', 'kubernetes-client-node.js')).mtimeMs).toBe(bundled);
  });

  it('bundles again when TypeScript emitted an import of a name the bundle lacks', async () => {
    writeFileSync(join(dist, 'discover.js'), "import { ApisApi } from '@kubernetes/client-node';\nexport { ApisApi };\n");
    const run = await vendor(dist);
    expect(run.output).toContain('4 names for 3 files bundled into');
    expect(readFileSync(join(dist, 'vendor', '.inputs'), 'utf8')).toContain('ApisApi');
  });

  it('fails the build on any import it cannot follow, naming each file, and writes no bundle', async () => {
    const texts = {
      'namespace.js': "import * as k8s from '@kubernetes/client-node';\nexport const K = k8s.KubeConfig;\n",
      'default.js': "import k8s from '@kubernetes/client-node';\nexport { k8s };\n",
      'everything.js': "export * from '@kubernetes/client-node';\n",
      'dynamic.js': "export const load = () => import('@kubernetes/client-node');\n",
      'fine.js': "import { KubeConfig } from '@kubernetes/client-node';\nexport { KubeConfig };\n",
    };
    const refused = build('refused', texts);
    const run = await vendor(refused);
    expect(run.code).toBe(1);
    for (const file of ['namespace.js', 'default.js', 'everything.js', 'dynamic.js']) {
      expect(run.output).toContain(join(refused, file));
    }
    expect(run.output).not.toContain(join(refused, 'fine.js'));
    for (const [file, text] of Object.entries(texts)) expect(readFileSync(join(refused, file), 'utf8')).toBe(text);
    expect(existsSync(join(refused, 'vendor'))).toBe(false);
  });
});

// `npm run build` and the build step of `npm start`: the OpenAPI types (when their inputs changed),
// `tsgo -b` of the sandbox package and the product (skipped while a sha256 of all it reads, the
// compilers' versions and the check mode match the last successful build's stamp in dist/), the
// bundled client-node (scripts/vendor-client-node.mjs, redone when TypeScript ran or its inputs
// changed), then the assets (only files whose content changed are written). Deleting dist/
// deletes the stamp. `--no-check` emits without type checking, for CI, whose `lint:types`
// checks the same sources. scripts/start.mjs calls `build()`; the command line is read only when run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash, buildInputsStats } from './build-inputs.mjs';
import { isMain } from './is-main.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// TypeScript's native compiler (tsgo, which `lint:types` checks with) emits the same JavaScript as
// tsc, in a third of the time (both projects: 8.5 -> 2.5 s unchecked, 4.3 s checked); the image's
// build (`npm run build:product`) keeps tsc.
const tsgo = join(dirname(createRequire(import.meta.url).resolve('@typescript/native-preview/package.json')), 'bin', 'tsgo');
const projects = ['packages/kube-sandbox/tsconfig.build.json', 'tsconfig.build.json'];
const stampPath = join(root, 'dist', '.build-inputs');
const outputs = ['dist/.tsbuildinfo', 'packages/kube-sandbox/dist/.tsbuildinfo'].map((p) => join(root, p));

/**
 * The last successful build's stamp, `<hash> <checked|unchecked>` and on a second line the
 * size-and-time look of its inputs (empty when a file had just changed: a second edit in the same
 * tick of the clock would not show in it).
 */
function readStamp() {
  const text = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  const [line = '', stats = ''] = text.split('\n');
  const [hash = '', mode = ''] = line.split(' ');
  return { text, hash, mode, stats };
}

/** Builds what changed; exits with TypeScript's status when it fails. */
export async function build({ noCheck = false } = {}) {
  await import('./generate-openapi-types.mjs');
  const stamp = readStamp();
  // Files unchanged by size and modification time since the stamp was written: its hash stands.
  const stats = buildInputsStats(root, projects);
  const inputs = stamp.stats !== '' && stamp.stats === stats.digest
    ? stamp.hash : buildInputsHash(root, projects, stats.files);
  // A checked build serves a request for an unchecked one; not the other way round.
  const upToDate = outputs.every((p) => existsSync(p)) && stamp.hash === inputs
    && (stamp.mode === 'checked' || (noCheck && stamp.mode === 'unchecked'));
  if (!upToDate) {
    const built = spawnSync(process.execPath, [tsgo, '-b', ...projects, ...(noCheck ? ['--noCheck'] : [])], {
      stdio: 'inherit', cwd: root,
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const vendor = await import('./vendor-client-node.mjs');
  if (!upToDate || vendor.vendorStale(join(root, 'dist'))) await vendor.vendorClientNode(join(root, 'dist'));
  // Stamped last: a build stopped half-way is done again from TypeScript on.
  const mode = upToDate ? stamp.mode : noCheck ? 'unchecked' : 'checked';
  const next = `${inputs} ${mode}\n${stats.racy ? '' : stats.digest}`;
  if (next !== stamp.text) writeFileSync(stampPath, next);
  (await import('./copy-assets.mjs')).copyAssets();
}

if (isMain(import.meta.url)) await build({ noCheck: process.argv.includes('--no-check') });

// `npm run build` and the build step of `npm start`: the OpenAPI types (when their inputs changed),
// `tsc -b` (TypeScript 7's native compiler) of the sandbox package and the product (skipped while a
// sha256 of all it reads, the compilers' versions and the check mode match the last successful
// build's stamp in dist/), the bundled client-node (scripts/vendor-client-node.mjs, redone when
// TypeScript ran or its inputs changed), then the assets (only files whose content changed are
// written). Deleting dist/ deletes the stamp. `--no-check` emits without type checking, for CI, whose
// `lint:types` checks the same sources. `--product` (`npm run build:product`, the image's build, which
// has no sandbox package) builds the product alone, the same steps with the same compiler, always.
// scripts/start.mjs calls `build()`; the command line is read only when run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash, buildInputsStats } from './build-inputs.mjs';
import { isMain } from './is-main.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// TypeScript 7 (`typescript@7` under the npm alias `typescript-7`, beside the TypeScript 5 that
// typescript-eslint and openapi-typescript load), the native compiler `lint:types` checks with too:
// a third of TypeScript 5's time. Its `tsc` is called by path: both packages have a bin of that name.
export const tsc7 = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin', 'tsc');
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

/** `tsc -b` of `list`; exits with TypeScript's status when it fails. */
function compile(list, noCheck) {
  const built = spawnSync(process.execPath, [tsc7, '-b', ...list, ...(noCheck ? ['--noCheck'] : [])], {
    stdio: 'inherit', cwd: root,
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** Builds what changed (the product alone, and all of it, with `product`); exits when TypeScript fails. */
export async function build({ noCheck = false, product = false } = {}) {
  await import('./generate-openapi-types.mjs');
  if (product) {
    compile(['tsconfig.build.json'], noCheck);
    await (await import('./vendor-client-node.mjs')).vendorClientNode(join(root, 'dist'));
    (await import('./copy-assets.mjs')).copyAssets();
    return;
  }
  const stamp = readStamp();
  // Files unchanged by size and modification time since the stamp was written: its hash stands.
  const stats = buildInputsStats(root, projects);
  const inputs = stamp.stats !== '' && stamp.stats === stats.digest
    ? stamp.hash : buildInputsHash(root, projects, stats.files);
  // A checked build serves a request for an unchecked one; not the other way round.
  const upToDate = outputs.every((p) => existsSync(p)) && stamp.hash === inputs
    && (stamp.mode === 'checked' || (noCheck && stamp.mode === 'unchecked'));
  if (!upToDate) compile(projects, noCheck);
  const vendor = await import('./vendor-client-node.mjs');
  if (!upToDate || vendor.vendorStale(join(root, 'dist'))) await vendor.vendorClientNode(join(root, 'dist'));
  // Stamped last: a build stopped half-way is done again from TypeScript on.
  const mode = upToDate ? stamp.mode : noCheck ? 'unchecked' : 'checked';
  const next = `${inputs} ${mode}\n${stats.racy ? '' : stats.digest}`;
  if (next !== stamp.text) writeFileSync(stampPath, next);
  (await import('./copy-assets.mjs')).copyAssets();
}

if (isMain(import.meta.url)) {
  await build({ noCheck: process.argv.includes('--no-check'), product: process.argv.includes('--product') });
}

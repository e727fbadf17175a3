// `npm run build` and the build step of `npm start`, in one process: the OpenAPI types
// (skipped when their inputs' sha256 is unchanged), `tsc -b` of the sandbox package and
// the product, then the assets (only files whose content changed are written). `tsc -b`
// is skipped too when a sha256 of everything it reads (both projects' sources and
// tsconfig files, TypeScript's version, the check mode) matches the one the last
// successful build stamped into dist/: starting TypeScript only to learn nothing changed
// took 0.4 s of a start on a built tree. Deleting dist/ deletes the stamp.
// After TypeScript, dist/'s imports of @kubernetes/client-node are pointed at one bundled file
// (scripts/vendor-client-node.mjs), redone when TypeScript ran or client-node changed.
// `--no-check` emits without type checking, for CI, whose `lint:types` checks the same sources.
// scripts/start.mjs calls `build()` itself, so this file reads the command line only when run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash, buildInputsStats } from './build-inputs.mjs';
import { isMain } from './is-main.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['packages/kube-sandbox/tsconfig.build.json', 'tsconfig.build.json'];
const stampPath = join(root, 'dist', '.build-inputs');
const statsPath = join(root, 'dist', '.build-inputs-stats');
const outputs = ['dist/.tsbuildinfo', 'packages/kube-sandbox/dist/.tsbuildinfo'].map((p) => join(root, p));

/** Builds what changed; exits with TypeScript's status when it fails. */
export async function build({ noCheck = false } = {}) {
  await import('./generate-openapi-types.mjs');
  const stamped = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  // Files unchanged by size and modification time since the stamp was written: its hash stands.
  const stats = buildInputsStats(root, projects);
  const sameStats = stamped !== '' && existsSync(statsPath) && readFileSync(statsPath, 'utf8') === stats.digest;
  const inputs = sameStats ? stamped.split(' ')[0] : buildInputsHash(root, projects);
  // A checked build serves a request for an unchecked one; not the other way round.
  const upToDate = outputs.every((p) => existsSync(p))
    && (stamped === `${inputs} checked` || (noCheck && stamped === `${inputs} unchecked`));
  if (!upToDate) {
    const built = spawnSync(process.execPath, [tsc, '-b', ...projects, ...(noCheck ? ['--noCheck'] : [])], {
      stdio: 'inherit', cwd: root,
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const vendor = await import('./vendor-client-node.mjs');
  if (!upToDate || vendor.vendorStale(join(root, 'dist'))) await vendor.vendorClientNode(join(root, 'dist'));
  // Stamped last: a build stopped half-way is done again from TypeScript on.
  if (!upToDate) writeFileSync(stampPath, `${inputs} ${noCheck ? 'unchecked' : 'checked'}`);
  // Not kept while a file changed just now (its time may not show a second edit in the same tick).
  if (!sameStats && !stats.racy) writeFileSync(statsPath, stats.digest);
  else if (stats.racy) rmSync(statsPath, { force: true });
  (await import('./copy-assets.mjs')).copyAssets();
}

if (isMain(import.meta.url)) await build({ noCheck: process.argv.includes('--no-check') });

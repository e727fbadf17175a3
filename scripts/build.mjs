// `npm run build` and the build step of `npm start`, in one process: the OpenAPI types
// (skipped when their inputs' sha256 is unchanged), `tsc -b` of the sandbox package and
// the product, then the assets (only files whose content changed are written). `tsc -b`
// is skipped too when a sha256 of everything it reads (both projects' sources and
// tsconfig files, TypeScript's version, the check mode) matches the one the last
// successful build stamped into dist/: starting TypeScript only to learn nothing changed
// took 0.4 s of a start on a built tree. Deleting dist/ deletes the stamp.
// `--no-check` emits without type checking, for CI, whose `lint:types` checks the same sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash } from './build-inputs.mjs';

await import('./generate-openapi-types.mjs');
const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const noCheck = process.argv.includes('--no-check');
const projects = ['packages/kube-sandbox/tsconfig.build.json', 'tsconfig.build.json'];
const stampPath = join(root, 'dist', '.build-inputs');
const outputs = ['dist/.tsbuildinfo', 'packages/kube-sandbox/dist/.tsbuildinfo'].map((p) => join(root, p));

const inputs = buildInputsHash(root, projects);
const stamped = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
// A checked build serves a request for an unchecked one; not the other way round.
const upToDate = outputs.every((p) => existsSync(p))
  && (stamped === `${inputs} checked` || (noCheck && stamped === `${inputs} unchecked`));
if (!upToDate) {
  const built = spawnSync(process.execPath, [tsc, '-b', ...projects, ...(noCheck ? ['--noCheck'] : [])], {
    stdio: 'inherit', cwd: root,
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  writeFileSync(stampPath, `${inputs} ${noCheck ? 'unchecked' : 'checked'}`);
}
await import('./copy-assets.mjs');

// `npm run build` and the build step of `npm start`, in one process: the OpenAPI types
// (skipped when their inputs' sha256 is unchanged), `tsc -b` of the sandbox package and
// the product (incremental: nothing is emitted for unchanged sources), then the assets
// (only files whose content changed are written). One process instead of an `npm run`
// and three more `node` starts is most of what a start on a built tree spent building.
// `--no-check` emits without type checking, for CI, whose `lint:types` checks the same sources.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

await import('./generate-openapi-types.mjs');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const check = process.argv.includes('--no-check') ? ['--noCheck'] : [];
const projects = ['packages/kube-sandbox/tsconfig.build.json', 'tsconfig.build.json'];
const built = spawnSync(process.execPath, [tsc, '-b', ...projects, ...check], {
  stdio: 'inherit', cwd: new URL('..', import.meta.url),
});
if (built.status !== 0) process.exit(built.status ?? 1);
await import('./copy-assets.mjs');

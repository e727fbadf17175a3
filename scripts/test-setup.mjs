// Makes sure the real components the tests use are on this machine before vitest
// starts: Debian's docker-registry (the OCI registry the chart tests push to) and
// htpasswd. Installs them with apt-get when missing and we are root; otherwise says
// what to install. kubectl is optional: its tests say clearly when they skip.
import { execFileSync, spawnSync } from 'node:child_process';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const missing = ['docker-registry', 'htpasswd'].filter((cmd) => !has(cmd));

if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`test-setup: missing ${missing.join(', ')}; install them with: sudo apt-get install -y docker-registry apache2-utils`);
    process.exit(1);
  }
  console.log(`test-setup: installing ${missing.join(', ')} from Debian's packages`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker-registry', 'apache2-utils'], { stdio: 'inherit', env });
  // The Debian package starts a system-wide registry on :5000 on some set-ups; the tests start their own.
  spawnSync('sh', ['-c', 'systemctl stop docker-registry 2>/dev/null || service docker-registry stop 2>/dev/null || true'], { stdio: 'ignore' });
}
if (!process.argv.includes('--install-only')) {
  console.log(`test-setup: docker-registry ${has('docker-registry') ? 'present' : 'absent'}, kubectl ${has('kubectl') ? 'present' : 'absent (its tests skip)'}`);
}

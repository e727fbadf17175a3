/**
 * The real kubectl with an OIDC user's id_token against the sandbox under RBAC: the
 * user's group may read HelmReleases, so `get` works; `create` is refused with the real
 * Forbidden text; an expired token is "Unauthorized". Skipped, saying so, when kubectl
 * is absent.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from './support/oidc-issuer.js';
import { helmRelease, startHarness, type Harness } from './harness.js';
import { KUBECTL, KUBECTL_ABSENT, runKubectl, type KubectlRun } from './support/kubectl.js';

const present = KUBECTL !== undefined;
const title = present
  ? 'kubectl as an OIDC user under RBAC'
  : `kubectl as an OIDC user under RBAC — SKIPPED: ${KUBECTL_ABSENT}`;

let h: Harness;
let issuer: TestIssuer;
let dir: string;

function kubectl(token: string, ...args: string[]): Promise<KubectlRun> {
  const kubeconfig = join(dir, `kubeconfig-${token.length}-${token.slice(-8)}`);
  return writeFile(kubeconfig, h.sandbox.kubeconfigYaml({ token, name: 'oidc-user' }), { mode: 0o600 }).then(() => {
    const env = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
    return runKubectl(args, env);
  });
}

describe.skipIf(!present)(title, () => {
  let viewer: string;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    h = await startHarness({
      authorization: 'rbac', seed: 'samples',
      oidc: { issuerUrl: issuer.url, clientId: 'kubernetes', usernameClaim: 'email', groupsClaim: 'groups', caPem: issuer.caPem },
    });
    dir = await mkdtemp(join(tmpdir(), 'sandbox-kubectl-oidc-'));
    viewer = await issuer.mint({ aud: 'kubernetes', email: 'vera@lab.local', email_verified: true, groups: ['platform-viewers'] });
  });
  afterAll(async () => {
    await h?.sandbox.close();
    await issuer?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gets HelmReleases the group may read', async () => {
    const run = await kubectl(viewer, 'get', 'helmreleases', '-n', 'kagent', '-o', 'name');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['helmrelease.helm.toolkit.fluxcd.io/incident-triage', 'helmrelease.helm.toolkit.fluxcd.io/paused-reviewer',
      'helmrelease.helm.toolkit.fluxcd.io/skilled-helper']);
  });

  it('is refused create with the real Forbidden text', async () => {
    const file = join(dir, 'hr.json');
    await writeFile(file, JSON.stringify(helmRelease('by-vera')));
    const run = await kubectl(viewer, 'create', '-f', file);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Error from server (Forbidden)');
    expect(run.stderr).toContain('helmreleases.helm.toolkit.fluxcd.io is forbidden: User "vera@lab.local" cannot create resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"');
  });

  it('is Unauthorized with an expired token', async () => {
    const expired = await issuer.mint({ aud: 'kubernetes', email: 'vera@lab.local', groups: ['platform-viewers'], exp: Math.floor(Date.now() / 1000) - 600 });
    const run = await kubectl(expired, 'get', 'helmreleases', '-n', 'kagent');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Unauthorized/);
  });
});

/**
 * `agent-manager serve --enable-oauth --downstream-oauth` through the composition root,
 * against a sandbox API server that trusts the same issuer (OIDC, RBAC on) reached
 * through a kubeconfig holding the ServiceAccount's token, as in a cluster. The
 * ServiceAccount serves start-up discovery only: after start-up every API request is
 * made as the person whose token the request carried.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { startFakeIssuer, type FakeIssuer } from '../support/identity/fake-issuer.js';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { startServe, type RunningServe } from '../support/start-serve.js';
import { capturedLogger, deadPort, request } from './helpers.js';
import { APISERVER_AUDIENCE, trustIssuerWithRbac } from './sandbox-identity.js';

const CLIENT_ID = 'agent-platform';
const SERVICE_ACCOUNT = 'system:serviceaccount:kagent:agent-manager';

describe('serve --enable-oauth --downstream-oauth', () => {
  let issuer: FakeIssuer;
  let sandbox: Sandbox;
  let dir: string;
  let base: string;
  let server: RunningServe | undefined;
  const logs = capturedLogger();

  beforeAll(async () => {
    issuer = await startFakeIssuer();
    sandbox = await startSandbox({ seed: true });
    trustIssuerWithRbac(sandbox, issuer);
    dir = mkdtempSync(join(tmpdir(), 'serve-downstream-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await sandbox.writeKubeconfig(kubeconfig, { token: sandbox.serviceAccountToken, name: 'agent-manager' });
    const parsed = parseConfig([
      'serve', '--listen=127.0.0.1:0', '--metrics-listen=', '--shutdown-delay=0s', `--kubeconfig=${kubeconfig}`,
      `--agent-chart-oci-url=oci://127.0.0.1:${await deadPort()}/charts/agent`,
      '--enable-oauth', '--downstream-oauth', '--oauth-base-url=http://localhost:8080',
      `--dex-issuer-url=${issuer.url}`, `--dex-client-id=${CLIENT_ID}`, '--allow-private-oauth-urls',
    ], { DEX_CLIENT_SECRET: 'unused' });
    if (parsed.kind !== 'serve') throw new Error(JSON.stringify(parsed));
    server = await startServe(parsed.config, logs.log);
    base = server.base;
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
    await issuer?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sandbox.counters.reset();
  });

  const tokenFor = (who: 'alice' | 'bob') => issuer.mint({
    aud: [CLIENT_ID, APISERVER_AUDIENCE], sub: `sub-${who}`, email: `${who}@lab.local`, email_verified: true,
    groups: who === 'alice' ? ['platform-admins'] : [],
  });

  it('logs the caller identity when the resource server is enabled', () => {
    expect(logs.lines.find((l) => l.msg === 'OAuth resource server enabled')).toMatchObject({
      provider: 'dex', issuer: issuer.url, trustedAudiences: [CLIENT_ID], identity: 'caller',
    });
  });

  it('reports identity caller and writesAsCaller', async () => {
    const res = await request(`${base}/api/v1/info`, { token: await tokenFor('bob') });
    expect(res.json).toMatchObject({ identity: 'caller', capabilities: { writesAsCaller: true } });
  });

  it('creates alice\'s agent as alice, with no request made as the ServiceAccount', async () => {
    const res = await request(`${base}/api/v1/agents`, {
      method: 'POST', token: await tokenFor('alice'),
      body: { name: 'served-as-alice', modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
    });
    expect(res.status).toBe(201);
    expect(res.json?.requestedBy).toBe('alice@lab.local');
    expect(sandbox.counters.count({ verb: 'create', user: 'alice@lab.local' })).toBeGreaterThan(0);
    expect(sandbox.counters.count({ user: SERVICE_ACCOUNT })).toBe(0);
  });

  it('refuses bob\'s create with the API server\'s 403, made as bob', async () => {
    const res = await request(`${base}/api/v1/agents`, {
      method: 'POST', token: await tokenFor('bob'),
      body: { name: 'served-as-bob', modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
    });
    expect(res.status).toBe(403);
    expect(res.json?.error.message).toContain('User "bob@lab.local" cannot create resource');
    expect(sandbox.counters.count({ user: SERVICE_ACCOUNT })).toBe(0);
    expect(sandbox.store.find('helmreleases', 'kagent', 'served-as-bob')).toBeUndefined();
  });
});

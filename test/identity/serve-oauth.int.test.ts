/**
 * `agent-manager serve --enable-oauth` through the composition root, in-process: the
 * flags become a verifier for a Dex-like issuer (served over https with its own CA,
 * trusted through `--dex-ca-file`), the metadata documents and the bearer guards. The
 * cluster is the in-process sandbox (`--sandbox`), and downstream OAuth is off, so the
 * ServiceAccount still does the Kubernetes calls while the caller is named on results
 * (TestServerGuardsRESTAndMCPButNotProbes, TestDownstreamOffKeepsTheServiceAccount).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type AppConfig } from '../../src/config/index.js';
import { startFakeIssuer, type FakeIssuer } from '../support/identity/fake-issuer.js';
import { runServe } from '../../src/serve.js';
import { duplicateKey } from '../../src/transport/input/duplicate-keys.js';
import { startServe, type RunningServe } from '../support/start-serve.js';
import { capturedLogger, challengeOf, deadPort, MCP_HEADERS, request, toolsCall } from './helpers.js';

const BASE_URL = 'http://localhost:8080';
const CLIENT_ID = 'agent-platform';

async function configFor(issuer: FakeIssuer, caFile: string, extra: string[] = []): Promise<AppConfig> {
  const parsed = parseConfig([
    'serve', '--sandbox', '--listen=127.0.0.1:0', '--metrics-listen=', '--shutdown-delay=0s',
    `--agent-chart-oci-url=oci://127.0.0.1:${await deadPort()}/charts/agent`,
    '--enable-oauth', `--oauth-base-url=${BASE_URL}`, `--dex-issuer-url=${issuer.url}`, `--dex-client-id=${CLIENT_ID}`,
    `--dex-ca-file=${caFile}`, '--allow-private-oauth-urls', ...extra,
  ], { DEX_CLIENT_SECRET: 'not-used-by-a-resource-server' });
  if (parsed.kind !== 'serve') throw new Error(JSON.stringify(parsed));
  return parsed.config;
}

describe('serve --enable-oauth (Dex over https with --dex-ca-file, downstream off)', () => {
  let issuer: FakeIssuer;
  let base: string;
  let server: RunningServe | undefined;
  const logs = capturedLogger();

  beforeAll(async () => {
    issuer = await startFakeIssuer({ tls: true, path: '/dex' });
    const config = await configFor(issuer, await issuer.writeCaFile());
    server = await startServe(config, logs.log);
    base = server.base;
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  const alice = () => issuer.mint({ aud: CLIENT_ID, sub: 'sub-alice', email: 'alice@lab.local', groups: ['platform-admins'] });

  it('logs the API versions it discovered from the cluster, not the flags\' "auto"', () => {
    const line = logs.lines.find((l) => l.msg === 'Kubernetes API versions');
    expect(line).toMatchObject({
      level: 'info', kagentAPI: 'kagent.dev/v1alpha2', helmReleaseAPI: 'helm.toolkit.fluxcd.io/v2', ociRepositoryAPI: 'source.toolkit.fluxcd.io/v1',
    });
  });

  it('logs that the resource server is on, with the provider, the issuer and the trusted audiences', () => {
    const line = logs.lines.find((l) => l.msg === 'OAuth resource server enabled');
    expect(line).toMatchObject({
      level: 'info', provider: 'dex', issuer: issuer.url, trustedAudiences: [CLIENT_ID], identity: 'serviceAccount',
    });
  });

  it.each(['/healthz', '/readyz'])('leaves %s open', async (path) => {
    const res = await request(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('ok');
  });

  it.each([
    ['/.well-known/oauth-protected-resource', BASE_URL],
    ['/.well-known/oauth-protected-resource/mcp', `${BASE_URL}/mcp`],
  ])('serves the metadata document %s openly, naming the issuer as the authorization server', async (path, resource) => {
    const res = await request(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      resource, authorization_servers: [issuer.url], bearer_methods_supported: ['header'],
      scopes_supported: ['openid', 'profile', 'email', 'groups'], resource_name: 'agent-manager',
    });
  });

  it.each([
    ['GET', '/api/v1/info', `${BASE_URL}/.well-known/oauth-protected-resource`],
    ['GET', '/api/v1/openapi.yaml', `${BASE_URL}/.well-known/oauth-protected-resource`],
    ['POST', '/mcp', `${BASE_URL}/.well-known/oauth-protected-resource/mcp`],
  ])('answers %s %s without a token with 401 and a challenge naming its metadata', async (method, path, metadata) => {
    const res = await request(`${base}${path}`, { method, headers: MCP_HEADERS, body: method === 'POST' ? toolsCall('get_info') : undefined });
    expect(res.status).toBe(401);
    expect(challengeOf(res)).toEqual({ resource_metadata: metadata });
    expect(res.json?.error.code).toBe('unauthenticated');
  });

  it('keeps the ServiceAccount when downstream OAuth is off (TestDownstreamOffKeepsTheServiceAccount)', async () => {
    const res = await request(`${base}/api/v1/info`, { token: await alice() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ identity: 'serviceAccount', capabilities: { writesAsCaller: false } });
  });

  it('names the verified caller on a write done as the ServiceAccount, in the result and the log line', async () => {
    const token = await alice();
    const res = await request(`${base}/api/v1/agents`, {
      method: 'POST', token,
      body: { name: 'oauth-serve', modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
    });
    expect(res.status).toBe(201);
    expect(res.json?.requestedBy).toBe('alice@lab.local');
    expect(logs.lines.find((l) => l.msg === 'agent created')).toMatchObject({ caller: 'alice@lab.local', agent: 'oauth-serve' });
    expect(logs.text()).not.toContain(token.split('.')[2]);
    // Every line carries each key once (the caller is bound to the request's logger already).
    for (const line of logs.text().split('\n')) expect(duplicateKey(line), line).toBeUndefined();
  });

  it('answers a token for another audience with the audience named beside the trusted one', async () => {
    const res = await request(`${base}/api/v1/info`, { token: await issuer.mint({ aud: 'someone-else' }) });
    expect(res.status).toBe(401);
    expect(challengeOf(res)).toMatchObject({
      error: 'invalid_token',
      error_description: 'token audience [someone-else] matches none of the trusted audiences [agent-platform] (--oauth-trusted-audiences)',
    });
  });
});

describe('serve --sandbox --enable-oauth --downstream-oauth', () => {
  it('warns at start-up that the in-process sandbox will refuse callers\' tokens, and what to run instead', async () => {
    const issuer = await startFakeIssuer({ tls: true });
    const logs = capturedLogger();
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => { stop = resolve; });
    try {
      const config = await configFor(issuer, await issuer.writeCaFile(), ['--downstream-oauth']);
      const running = runServe(config, logs.log, { stop: stopped, onListening: () => stop() });
      await running;
      const warning = logs.lines.find((l) => String(l.msg).startsWith('the in-process sandbox does not trust the identity provider'));
      expect(warning).toMatchObject({ level: 'warn', issuer: issuer.url });
      expect(String(warning?.msg)).toContain('agent-manager sandbox --oidc-issuer-url=');
    } finally {
      stop();
      await issuer.close();
    }
  });
});

describe('serve --enable-oauth start-up refusals', () => {
  let issuer: FakeIssuer;
  beforeAll(async () => {
    issuer = await startFakeIssuer({ tls: true });
  });
  afterAll(async () => {
    await issuer?.close();
  });

  it('stops with the flag named when the Dex CA file cannot be read', async () => {
    const config = await configFor(issuer, '/nonexistent/ca.pem');
    await expect(runServe(config, capturedLogger().log, { stop: new Promise(() => undefined) }))
      .rejects.toThrow(/^invalid request: --dex-ca-file \/nonexistent\/ca\.pem: cannot read it: /);
  });
});

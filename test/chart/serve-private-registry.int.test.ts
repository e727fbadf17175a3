// The service end to end with a private chart registry: Debian's docker-registry behind
// htpasswd (HTTP Basic). With the credentials in a Docker config file (what a mounted
// kubernetes.io/dockerconfigjson Secret gives the pod) the schema comes from the registry;
// without them, or with a wrong password, get_info reports the embedded schema and says the
// registry refused. The composed OCIRepository names the pull Secret and the provider.
// The Kubernetes API is the in-process sandbox.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schemaWithToolset } from '../support/chart/chart-schemas.js';
import { pushChart } from '../support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../support/chart/registry-server.js';
import type { Info, ValidateResult } from '../../src/core/types.js';
import { serveConfig, startServe, type RunningServe } from '../support/start-serve.js';

const REPO = 'charts/agent';
const ACCOUNT = { username: 'agent-manager', password: 'chart-pull-password' };
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED private-registry suite: ${registry.reason}`);

describe.skipIf(registry.mode === 'skip')('serve with the agent chart in a private registry (htpasswd)', () => {
  let server: RegistryServer;
  let dir: string;
  let running: RunningServe | undefined;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry({ auth: 'htpasswd', users: [ACCOUNT] });
    await pushChart({
      registryUrl: server.url, repository: REPO, tag: '0.6.0', basicAuth: ACCOUNT,
      chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') },
    });
    dir = mkdtempSync(join(tmpdir(), 'serve-private-registry-'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  function dockerConfig(name: string, password: string): string {
    const path = join(dir, name);
    const auth = Buffer.from(`${ACCOUNT.username}:${password}`).toString('base64');
    writeFileSync(path, JSON.stringify({ auths: { [server.host]: { auth } } }));
    return path;
  }

  async function serve(...flags: string[]): Promise<string> {
    running = await startServe(serveConfig([
      '--listen=127.0.0.1:0', '--metrics-listen=', '--sandbox', `--agent-chart-oci-url=${server.ociUrl(REPO)}`, '--agent-chart-semver=0.x', ...flags,
    ]));
    return running.base;
  }

  const info = async (base: string): Promise<Info> => (await (await fetch(`${base}/api/v1/info`)).json()) as Info;

  it('reads the schema from the registry with the Docker config credentials', async () => {
    const base = await serve(`--agent-chart-docker-config=${dockerConfig('good.json', ACCOUNT.password)}`);
    const { chart } = await info(base);
    expect(chart).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', latestVersion: '0.6.0' });
    expect(chart.error).toBeUndefined();
  });

  it('reads the schema with a user name and password from the environment', async () => {
    running = await startServe(serveConfig(
      ['--listen=127.0.0.1:0', '--metrics-listen=', '--sandbox', `--agent-chart-oci-url=${server.ociUrl(REPO)}`, '--agent-chart-semver=0.x'],
      { AGENT_CHART_USERNAME: ACCOUNT.username, AGENT_CHART_PASSWORD: ACCOUNT.password },
    ));
    expect((await info(running.base)).chart).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0' });
  });

  it('without credentials, get_info reports the embedded schema and that the registry refused anonymous access', async () => {
    const { chart } = await info(await serve());
    expect(chart).toMatchObject({ schemaSource: 'embedded', schemaVersion: '0.5.2' });
    expect(chart.error).toBe(`registry ${server.host} refused anonymous access (HTTP 401, Basic challenge): `
      + 'configure credentials with --agent-chart-docker-config, --agent-chart-username and --agent-chart-password, or --agent-chart-token');
  });

  it('with a wrong password, get_info says the registry refused the configured credentials, and never quotes them', async () => {
    const { chart } = await info(await serve(`--agent-chart-docker-config=${dockerConfig('bad.json', 'not-the-password')}`));
    expect(chart).toMatchObject({ schemaSource: 'embedded' });
    expect(chart.error).toBe(`registry ${server.host} refused the configured credentials (HTTP 401)`);
    expect(JSON.stringify(chart)).not.toContain('not-the-password');
  });

  it('stops at startup when the Docker config has no entry for the chart registry', async () => {
    const path = join(dir, 'other.json');
    writeFileSync(path, JSON.stringify({ auths: { 'ghcr.io': { auth: 'dTpw' } } }));
    await expect(serve(`--agent-chart-docker-config=${path}`)).rejects.toThrow(
      `--agent-chart-docker-config ${path}: ${path} has no entry for registry ${server.host} (it has ghcr.io)`);
  });

  it('composes the OCIRepository with spec.secretRef and spec.provider when they are configured', async () => {
    const base = await serve(
      `--agent-chart-docker-config=${dockerConfig('good2.json', ACCOUNT.password)}`, '--agent-chart-secret-ref=agent-chart-pull', '--agent-chart-provider=azure',
    );
    expect((await info(base)).chart.schemaSource).toBe('registry');
    const res = await fetch(`${base}/api/v1/agents/validate`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'private-one', modelConfig: 'default-model-config', toolset: ['preset:none'] }),
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as ValidateResult;
    expect(result).toMatchObject({ valid: true, schemaSource: 'registry', schemaVersion: '0.6.0' });
    const source = parse(result.manifests.ociRepository) as { spec: Record<string, unknown> };
    expect(source.spec).toMatchObject({ url: server.ociUrl(REPO), provider: 'azure', secretRef: { name: 'agent-chart-pull' } });
  });
});

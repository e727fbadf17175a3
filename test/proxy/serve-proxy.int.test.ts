// The service behind a proxy, end to end: HTTP_PROXY/HTTPS_PROXY carry the chart registry
// (Debian's docker-registry, plain http on loopback, so forwarded in absolute form) and the
// GitHub API (a loopback double) and kagent's A2A endpoint (the sandbox's, plain http) through a loopback proxy, and
// the kubeconfig's proxy-url carries the Kubernetes API (the sandbox, https, so through CONNECT tunnels). NO_PROXY
// exempts hosts. The proxy counts what it carried.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schemaWithToolset } from '../support/chart/chart-schemas.js';
import { pushChart } from '../support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../support/chart/registry-server.js';
import type { Info } from '../../src/core/types.js';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { startConnectProxy, type TestProxy } from '../support/connect-proxy.js';
import { seedAgentCr, seedRelease, seedWorkload } from '../support/service/seed-agents.js';
import { serveConfig, startServe, type RunningServe } from '../support/start-serve.js';

const REPO = 'charts/agent';
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED serve-behind-a-proxy suite: ${registry.reason}`);

describe.skipIf(registry.mode === 'skip')('serve behind an HTTP proxy', () => {
  let chartRegistry: RegistryServer;
  let sandbox: Sandbox;
  let github: Server;
  let githubHost: string;
  let proxy: TestProxy;
  let dir: string;
  let running: RunningServe | undefined;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    chartRegistry = await startRegistry();
    await pushChart({ registryUrl: chartRegistry.url, repository: REPO, tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
    sandbox = await startSandbox({ seed: true, a2a: true });
    // A Ready agent the sandbox's kagent A2A endpoint serves.
    seedRelease(sandbox, { name: 'talker', ready: true });
    seedAgentCr(sandbox, { name: 'talker', ready: true, accepted: true });
    seedWorkload(sandbox, { name: 'talker', replicas: 1, available: 1, pods: [{ name: 'talker-abc', ready: true }] });
    // A GitHub API double that knows no repository: enough to see the request arrive.
    github = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}'));
    await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
    githubHost = `127.0.0.1:${(github.address() as AddressInfo).port}`;
    proxy = await startConnectProxy();
    dir = mkdtempSync(join(tmpdir(), 'serve-proxy-'));
  });
  afterAll(async () => {
    await proxy?.close();
    github?.closeAllConnections();
    await new Promise((resolve) => github?.close(resolve));
    await sandbox?.close();
    await chartRegistry?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    proxy.tunnels.length = 0;
    proxy.forwarded.length = 0;
  });

  /** The sandbox's kubeconfig for agent-manager's ServiceAccount, with `proxy-url` when given. */
  function kubeconfig(name: string, proxyUrl?: string): string {
    const doc = parse(sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' })) as { clusters: { cluster: Record<string, unknown> }[] };
    if (proxyUrl) doc.clusters[0]!.cluster['proxy-url'] = proxyUrl;
    const path = join(dir, name);
    writeFileSync(path, stringify(doc), { mode: 0o600 });
    return path;
  }

  async function serve(kubeconfigPath: string, env: Record<string, string>): Promise<string> {
    running = await startServe(serveConfig([
      '--listen=127.0.0.1:0', '--metrics-listen=', `--kubeconfig=${kubeconfigPath}`, `--agent-chart-oci-url=${chartRegistry.ociUrl(REPO)}`, '--agent-chart-semver=0.x',
      '--skills-repositories=https://github.com/example/skills', `--skills-github-api=http://${githubHost}`,
      `--kagent-a2a-url=${sandbox.a2aUrl}`,
    ], env));
    return running.base;
  }

  const sandboxHost = (): string => new URL(sandbox.url).host;

  it('reads the chart registry and GitHub through HTTP_PROXY, and the API through the kubeconfig proxy-url', async () => {
    const base = await serve(kubeconfig('proxied.yaml', proxy.url), { HTTP_PROXY: proxy.url });
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as Info;
    expect(info.chart).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0' });
    expect((await fetch(`${base}/api/v1/agents?namespace=kagent`)).status).toBe(200);
    await (await fetch(`${base}/api/v1/skills`)).text();

    expect(proxy.forwarded.filter((h) => h === chartRegistry.host).length).toBeGreaterThanOrEqual(2);
    expect(proxy.forwarded).toContain(githubHost);
    expect(proxy.tunnels.filter((h) => h === sandboxHost()).length).toBeGreaterThanOrEqual(1);
  });

  it('talks to kagent\'s A2A endpoint through HTTP_PROXY', async () => {
    const base = await serve(kubeconfig('a2a.yaml'), { HTTP_PROXY: proxy.url });
    const started = await fetch(`${base}/api/v1/agents/kagent/talker/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'hi' }),
    });
    expect(started.status).toBe(201);
    expect(proxy.forwarded.filter((h) => h === new URL(sandbox.a2aUrl!).host).length).toBeGreaterThanOrEqual(2);
  });

  it('goes direct to every host NO_PROXY lists, and to the API without a proxy-url', async () => {
    const base = await serve(kubeconfig('direct.yaml'), { http_proxy: proxy.url, NO_PROXY: '127.0.0.1' });
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as Info;
    expect(info.chart.schemaSource).toBe('registry');
    expect((await fetch(`${base}/api/v1/agents?namespace=kagent`)).status).toBe(200);
    await (await fetch(`${base}/api/v1/skills`)).text();
    expect(proxy.forwarded).toEqual([]);
    expect(proxy.tunnels).toEqual([]);
  });

  it('says the registry is unreachable through a proxy that is down, in get_info', async () => {
    const downProxy = await startConnectProxy();
    await downProxy.close();
    const base = await serve(kubeconfig('down.yaml'), { HTTP_PROXY: downProxy.url });
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as Info;
    expect(info.chart.schemaSource).toBe('embedded');
    expect(info.chart.error).toMatch(/ECONNREFUSED|fetch failed|connect/);
  });
});

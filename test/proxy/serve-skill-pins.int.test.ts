// Skill pinning in the served process: `serve` wires the resolver with the skills GitHub
// settings (--skills-github-api) and the outbound fetch, so a create behind HTTP_PROXY asks
// the GitHub double for the commit and the registry for the digest through the proxy, and
// writes the pins. Needs no skill repository configured: pinning is not discovery.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaWithToolset } from '../support/chart/chart-schemas.js';
import { pushChart } from '../support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../support/chart/registry-server.js';
import { doubleCommit, startGitHubDouble, type GitHubDouble } from '../support/github/skills-github-double.js';
import { startConnectProxy, type TestProxy } from '../support/connect-proxy.js';
import { serveConfig, startServe, type RunningServe } from '../support/start-serve.js';

const registry = registryTestMode();
const REPO = 'https://github.com/giantswarm/agent-skills';

describe.skipIf(registry.mode === 'skip')('serve pins skills through the outbound proxy', () => {
  let chartRegistry: RegistryServer;
  let sandbox: Sandbox;
  let github: GitHubDouble;
  let proxy: TestProxy;
  let dir: string;
  let running: RunningServe | undefined;
  let skillDigest: string;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    chartRegistry = await startRegistry();
    await pushChart({ registryUrl: chartRegistry.url, repository: 'charts/agent', tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
    ({ manifestDigest: skillDigest } = await pushChart({ registryUrl: chartRegistry.url, repository: 'skills/runbooks', tag: '1.4.0', chart: { version: '1.4.0' } }));
    sandbox = await startSandbox({ seed: true });
    github = await startGitHubDouble({ repositories: { 'giantswarm/agent-skills': { defaultBranch: 'main', refs: { main: { files: {} } } } } });
    proxy = await startConnectProxy();
    dir = mkdtempSync(join(tmpdir(), 'serve-pins-'));
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }), { mode: 0o600 });
    running = await startServe(serveConfig([
      '--listen=127.0.0.1:0', '--metrics-listen=', `--kubeconfig=${kubeconfig}`, `--agent-chart-oci-url=${chartRegistry.ociUrl('charts/agent')}`,
      `--skills-github-api=${github.url}`,
    ], { HTTP_PROXY: proxy.url }));
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await proxy?.close();
    await github?.close();
    await sandbox?.close();
    await chartRegistry?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves a branch and an OCI tag on create, through the proxy, and writes the pins', async () => {
    const image = `${chartRegistry.host}/skills/runbooks`;
    const res = await fetch(`${running!.base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'served-pins', modelConfig: 'default-model-config', toolset: ['preset:read-only'],
        skills: { gitRefs: [{ url: REPO, ref: 'main' }], refs: [`${image}:1.4.0`] },
      }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { agent: { skills: unknown } };
    expect(body.agent.skills).toEqual({
      gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'main', commit: doubleCommit('giantswarm/agent-skills', 'main') }],
      refs: [{ ref: `${image}:1.4.0`, digest: skillDigest }],
    });
    const release = sandbox.store.get('helmreleases', 'kagent', 'served-pins') as { spec: { values: { skills: unknown } } };
    expect(release.spec.values.skills).toEqual({
      gitRefs: [{ url: REPO, ref: doubleCommit('giantswarm/agent-skills', 'main'), name: 'agent-skills' }],
      refs: [`${image}@${skillDigest}`],
    });
    expect(github.count('/repos/giantswarm/agent-skills/commits/main')).toBe(1);
    expect(proxy.forwarded).toContain(new URL(github.url).host);
    expect(proxy.forwarded).toContain(chartRegistry.host);
  });
});

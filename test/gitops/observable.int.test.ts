/**
 * Commit mode's GitHub requests are outbound requests like every other: the running
 * service (runServe, against the sandbox with the Flux objects and the GitHub double over
 * a real bare repository) sends them through the proxy HTTP_PROXY names (the double is
 * plain http on loopback, so the loopback proxy forwards them in absolute form), counts
 * them in the outbound metrics with peer="github", and traces them as client spans under
 * the operation. A proxy that is down fails the proposal instead of reaching GitHub directly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { seedGitOpsCluster, startGitOpsWorld, WRITER_TOKEN, type GitOpsWorld } from '../support/github/commit-world.js';
import { startConnectProxy, type TestProxy } from '../support/connect-proxy.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { deadRegistryFlag, serveConfig, startServe } from '../support/start-serve.js';

const CLIENT = 3;
/** No spacing between writes and 1 ms retry backoff: the double is no GitHub to be kind to. */
const PACING = { writeSpacingMs: 0, notificationSpacingMs: 0, retryBaseMs: 1 };

describe('commit mode\'s GitHub requests, observable like every outbound client', () => {
  let sandbox: Sandbox;
  let world: GitOpsWorld;
  let proxy: TestProxy;
  let receiver: OtlpReceiver;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: true });
    seedGitOpsCluster(sandbox);
    world = await startGitOpsWorld();
    proxy = await startConnectProxy();
    receiver = await startOtlpReceiver();
    dir = mkdtempSync(join(tmpdir(), 'gitops-proxy-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, sandbox.kubeconfigYaml({ token: sandbox.adminToken, name: 'admin' }), { mode: 0o600 });
  });
  afterAll(async () => {
    await receiver?.close();
    await proxy?.close();
    await world?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function serve(env: Record<string, string>) {
    return startServe(serveConfig([
      '--listen=127.0.0.1:0', '--metrics-listen=127.0.0.1:0', `--kubeconfig=${kubeconfig}`, await deadRegistryFlag(),
      `--github-api-url=${world.github.url}`,
    ], { GITOPS_GITHUB_TOKEN: WRITER_TOKEN, ...env }), undefined, { githubPacing: PACING });
  }

  it('proposes through HTTP_PROXY, with peer="github" metrics and client spans under the operation', async () => {
    const running = await serve({ HTTP_PROXY: proxy.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' });
    let metrics: string;
    try {
      const res = await fetch(`${running.base}/api/v1/agents/kagent/sre?mode=commit`, {
        method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Proxied' }),
      });
      const body = await res.json() as { commit?: { pullRequest?: string } };
      expect(res.status).toBe(200);
      expect(body.commit?.pullRequest).toMatch(/\/pull\/1$/);
      metrics = await (await fetch(`${running.metrics}/metrics`)).text();
    } finally {
      await running.close();
    }
    const githubHost = new URL(world.github.url).host;
    // Every GitHub request went through the proxy: reads of the branch, tree and blobs, the writes and the pull.
    expect(proxy.forwarded.filter((h) => h === githubHost).length).toBe(world.github.calls.length);
    expect(world.github.calls.length).toBeGreaterThanOrEqual(6);
    expect(metrics).toMatch(/agent_manager_http_client_request_duration_seconds_count\{peer="github",method="GET",code="200"\} [1-9]/);
    expect(metrics).toMatch(/agent_manager_http_client_request_duration_seconds_count\{peer="github",method="POST",code="201"\} [1-9]/);
    const operation = receiver.spans.find((s) => s.name === 'update_agent');
    expect(operation).toBeDefined();
    const github = receiver.spans.filter((s) => s.attributes['agent_manager.peer'] === 'github');
    expect(github.length).toBe(world.github.calls.length);
    expect(github.every((s) => s.kind === CLIENT && s.traceId === operation!.traceId)).toBe(true);
  });

  it('fails the proposal when the proxy is down, instead of reaching GitHub around it', async () => {
    const down = await startConnectProxy();
    await down.close();
    const calls = world.github.calls.length;
    const running = await serve({ HTTP_PROXY: down.url });
    try {
      const res = await fetch(`${running.base}/api/v1/agents/kagent/sre?mode=commit`, {
        method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Around' }),
      });
      expect(res.status).toBe(502);
    } finally {
      await running.close();
    }
    expect(world.github.calls.length).toBe(calls);
  });
});

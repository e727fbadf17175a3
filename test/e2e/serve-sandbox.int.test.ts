/**
 * `agent-manager serve --sandbox`, what `npm start` runs, end to end in-process: the
 * composition root starts the embedded sandbox API server, discovers its API versions,
 * and serves REST, MCP and the metrics listener against it; the sandbox is a management
 * cluster with workload clusters alpha and beta. Everything stays on
 * loopback: the chart registry is pointed at a loopback port nothing listens on, so
 * the embedded schema answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { deadRegistryFlag, serveConfig, startServe } from '../support/start-serve.js';

describe('serve --sandbox', () => {
  let dir: string;
  let kubeconfig: string;
  let base: string;
  let metrics: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'serve-sandbox-'));
    kubeconfig = join(dir, 'kubeconfig');
    const running = await startServe(serveConfig([
      '--sandbox', '--listen=127.0.0.1:0', '--metrics-listen=127.0.0.1:0', `--sandbox-kubeconfig=${kubeconfig}`, await deadRegistryFlag(),
    ]));
    base = running.base;
    metrics = running.metrics!;
    stop = running.close;
  });

  afterAll(async () => {
    await stop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('describes the installation against the sandbox, as the ServiceAccount', async () => {
    const res = await fetch(`${base}/api/v1/info`);
    expect(res.status).toBe(200);
    const info = (await res.json()) as {
      identity: string;
      apiVersions: Record<string, string>;
      namespaces: { default: string };
      chartLines?: Array<{ namespace: string; line: string }>;
    };
    expect(info.identity).toBe('serviceAccount');
    expect(info.namespaces.default).toBe('kagent');
    expect(info.apiVersions).toEqual({
      agent: 'kagent.dev/v1alpha2', modelConfig: 'kagent.dev/v1alpha2',
      helmRelease: 'helm.toolkit.fluxcd.io/v2', ociRepository: 'source.toolkit.fluxcd.io/v1',
      agentV2: 'api.kagent.dev/v1alpha3',
    });
    // Namespace kagent follows chart 0.x, namespace agents 2.x (docs/chart-lines.md).
    expect(info.chartLines?.map((l) => `${l.namespace}:${l.line}`)).toEqual(['kagent:0.x', 'agents:2.x']);
  });

  it('lists the seeded model configs and the sample agents', async () => {
    const configs = (await (await fetch(`${base}/api/v1/modelconfigs`)).json()) as { modelConfigs: Array<{ name: string }> };
    expect(configs.modelConfigs.map((m) => m.name)).toEqual(['default-model-config', 'qwen3-8-27b']);
    const agents = await fetch(`${base}/api/v1/agents`);
    expect(agents.status).toBe(200);
    const listed = (await agents.json()) as { agents: Array<{ name: string; managed: string }> };
    expect(listed.agents.map((a) => [a.name, a.managed])).toEqual([['incident-triage', 'gitops'], ['kubectl-helper', 'none'], ['paused-reviewer', 'helmrelease'], ['skilled-helper', 'helmrelease']]);
  });

  it('creates and deletes an agent over REST, and MCP sees it in between', async () => {
    const created = await fetch(`${base}/api/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e2e-bot', modelConfig: 'default-model-config', toolset: ['preset:none'] }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { created: Record<string, boolean> }).created).toEqual({
      ociRepository: false, helmRelease: true,
    });

    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const result = await client.callTool({ name: 'get_agent', arguments: { name: 'e2e-bot' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent as { name: string; managed: string }).toMatchObject({ name: 'e2e-bot', managed: 'helmrelease' });
    } finally {
      await client.close();
    }

    const deleted = await fetch(`${base}/api/v1/agents/kagent/e2e-bot`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as { helmReleaseDeleted: boolean }).helmReleaseDeleted).toBe(true);
  });

  it('writes a kubeconfig kubectl (or any client) can use against the sandbox', async () => {
    const core = loadBaseKubeConfig({ kubeconfig }).makeApiClient(CoreV1Api);
    const namespaces = await core.listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(['kagent', 'tenant']));
  });

  it('runs a fleet: workload clusters alpha and beta of organization acme, each with a sample agent placed from org-acme', async () => {
    const management = loadBaseKubeConfig({ kubeconfig });
    const secrets = await management.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'org-acme', labelSelector: 'cluster.x-k8s.io/cluster-name' });
    expect(secrets.items.map((s) => s.metadata?.name)).toEqual(['alpha-kubeconfig', 'beta-kubeconfig']);
    const releases = (await management.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({
      group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases', namespace: 'org-acme',
    })) as { items: Array<{ metadata: { name: string }; spec: { releaseName: string; kubeConfig: unknown } }> };
    expect(releases.items.map((r) => [r.metadata.name, r.spec.releaseName, r.spec.kubeConfig])).toEqual([
      ['alpha-cluster-helper', 'cluster-helper', { secretRef: { name: 'alpha-kubeconfig', key: 'value' } }],
      ['beta-cluster-helper', 'cluster-helper', { secretRef: { name: 'beta-kubeconfig', key: 'value' } }],
    ]);
    for (const secret of secrets.items) {
      const workload = loadBaseKubeConfig({ kubeconfigYaml: Buffer.from(secret.data!.value!, 'base64').toString('utf8') });
      expect(workload.getCurrentCluster()?.server).not.toBe(management.getCurrentCluster()?.server);
      const agent = await workload.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({
        group: 'kagent.dev', version: 'v1alpha2', plural: 'agents', namespace: 'kagent', name: 'cluster-helper',
      });
      expect(agent).toMatchObject({ metadata: { labels: { 'helm.toolkit.fluxcd.io/namespace': 'org-acme' } } });
    }
  });

  it('names the sandbox fleet\'s organization in get_info and accepts a create on alpha, with the muster URL it sets', async () => {
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as { organizations?: string[]; capabilities: { targetCluster: boolean } };
    expect(info.capabilities.targetCluster).toBe(true);
    expect(info.organizations).toEqual(['acme']);
    const created = await fetch(`${base}/api/v1/agents?organization=acme&cluster=alpha`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'placed-bot', modelConfig: 'default-model-config', toolset: ['preset:none'] }),
    });
    expect(created.status).toBe(201);
    const deleted = await fetch(`${base}/api/v1/agents/kagent/placed-bot?organization=acme&cluster=alpha`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
  });

  it('counts the requests on the metrics listener', async () => {
    const body = await (await fetch(`${metrics}/metrics`)).text();
    expect(body).toMatch(/http_server_request_duration_seconds_count\{method="GET",route="\/api\/v1\/info",code="200",status="200"\} [1-9]/);
    expect(body).toMatch(/mcp_server_operation_duration_seconds_count\{tool="get_agent",outcome="ok"\} 1/);
  });

  it('talks to a new agent over the sandbox\'s A2A endpoint without being told where it is', async () => {
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as { capabilities: { sessions: boolean } };
    expect(info.capabilities.sessions).toBe(true);
    const created = await fetch(`${base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e2e-talker', displayName: 'E2E Talker', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 }),
    });
    expect(created.status).toBe(201);
    const started = await fetch(`${base}/api/v1/agents/kagent/e2e-talker/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'hi' }),
    });
    expect(started.status).toBe(201);
    expect(((await started.json()) as { turn: { text: string } }).turn.text).toBe('Hello, I am E2E Talker. You said: hi');
    const body = await (await fetch(`${metrics}/metrics`)).text();
    expect(body).toMatch(/agent_manager_http_client_request_duration_seconds_count\{peer="kagent",method="(GET|POST)",code="200"\} [1-9]/);
  });
});

/**
 * `agent-manager sandbox` as a function: it serves until stopped, writes the kubeconfig
 * it was asked for, and that kubeconfig works with client-node; with its defaults it
 * seeds the sample platform, enforces RBAC and runs the controllers; with workload clusters
 * it also starts them and places a sample agent on each.
 */
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runSandbox, type CommandLogger, type SandboxCommandConfig } from './cli.js';
import type { Sandbox } from './index.js';

const silentLogger = (): CommandLogger => ({ debug: () => {}, info: () => {}, error: () => {} });

const base: SandboxCommandConfig = {
  listen: '127.0.0.1:0', kubeconfigOut: '', seed: true, authorization: 'always-allow', controllers: false, reconcileDelayMs: 10,
  oidc: undefined,
};

/** Run the command until the returned stop is called. */
async function run(
  config: SandboxCommandConfig, log: CommandLogger = silentLogger(),
): Promise<{ sandbox: Sandbox; output: () => string; stop: () => Promise<void> }> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const abort = new AbortController();
  let ready!: (s: Sandbox) => void;
  const started = new Promise<Sandbox>((resolve) => {
    ready = resolve;
  });
  const running = runSandbox(config, log, { signal: abort.signal, onReady: ready });
  const sandbox = await Promise.race([started, running.then(() => Promise.reject(new Error('the sandbox stopped before it was ready')))]);
  return {
    sandbox,
    output: () => write.mock.calls.map((c) => String(c[0])).join(''),
    stop: async () => {
      abort.abort();
      await running;
      write.mockRestore();
    },
  };
}

describe('runSandbox', () => {
  it('serves with the written kubeconfig until it is stopped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
    const kubeconfigOut = join(dir, 'kubeconfig');
    const cmd = await run({ ...base, kubeconfigOut });
    try {
      expect(cmd.output()).toContain(`Sandbox Kubernetes API server: ${cmd.sandbox.url}`);
      expect(cmd.output()).toContain('Controllers: off');
      const kc = new KubeConfig();
      kc.loadFromString(await readFile(kubeconfigOut, 'utf8'));
      const names = (await kc.makeApiClient(CoreV1Api).listNamespace()).items.map((n) => n.metadata!.name);
      expect(names).toContain('kagent');
      await cmd.stop();
      await expect(kc.makeApiClient(CoreV1Api).listNamespace()).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('seeds the sample agents, enforces RBAC and runs the controllers with the defaults', async () => {
    const cmd = await run({ ...base, authorization: 'rbac', controllers: true });
    try {
      expect(cmd.output()).toContain('Authorization: RBAC');
      expect(cmd.output()).toMatch(/Controllers: running \(source-controller, helm-controller, /);
      expect(cmd.output()).toContain(`kagent A2A for Ready agents: ${cmd.sandbox.a2aUrl}/<namespace>/<name>/`);
      const kc = new KubeConfig();
      kc.loadFromString(cmd.sandbox.kubeconfigYaml({ token: cmd.sandbox.serviceAccountToken, name: 'agent-manager' }));
      const custom = kc.makeApiClient(CustomObjectsApi);
      const releases: any = await custom.listNamespacedCustomObject({ group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases', namespace: 'kagent' });
      expect(releases.items.map((r: any) => [r.metadata.name, r.spec.suspend ?? false, r.metadata.labels['kustomize.toolkit.fluxcd.io/name']]))
        .toEqual([['incident-triage', false, 'platform-agents'], ['paused-reviewer', true, undefined],
          ['skilled-helper', false, undefined]]);
      const agents = await vi.waitFor(async () => {
        const list: any = await custom.listNamespacedCustomObject({ group: 'kagent.dev', version: 'v1alpha2', plural: 'agents', namespace: 'kagent' });
        const ready = list.items.filter((a: any) => a.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'));
        if (ready.length !== 4) throw new Error(`${ready.length} of ${list.items.length} agents ready`);
        return list.items.map((a: any) => a.metadata.name);
      }, { timeout: 10_000, interval: 50 });
      expect(agents).toEqual(['incident-triage', 'kubectl-helper', 'paused-reviewer', 'skilled-helper']);
      await expect(kc.makeApiClient(CoreV1Api).listNamespace()).rejects.toMatchObject({ code: 403 });
    } finally {
      await cmd.stop();
    }
  });

  it('starts N workload clusters of the organization, prints and writes their kubeconfigs, and places a sample agent on each', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
    const kubeconfigOut = join(dir, 'kubeconfig');
    const cmd = await run({ ...base, kubeconfigOut, controllers: true, workloadClusters: 2, organization: 'initech' });
    try {
      const [one, two] = [cmd.sandbox.workloads.get('cluster-1')!, cmd.sandbox.workloads.get('cluster-2')!];
      expect(cmd.output()).toContain('Workload clusters of organization initech (kubeconfig Secrets <cluster>-kubeconfig in org-initech):\n'
        + `  cluster-1: ${one.url} (KUBECONFIG=${kubeconfigOut}-cluster-1)\n  cluster-2: ${two.url} (KUBECONFIG=${kubeconfigOut}-cluster-2)\n`);
      const kc = new KubeConfig();
      kc.loadFromString(await readFile(`${kubeconfigOut}-cluster-2`, 'utf8'));
      expect(kc.getCurrentCluster()!.server).toBe(two.url);
      const custom = kc.makeApiClient(CustomObjectsApi);
      const agent: any = await vi.waitFor(async () => {
        const a: any = await custom.getNamespacedCustomObject({ group: 'kagent.dev', version: 'v1alpha2', plural: 'agents', namespace: 'kagent', name: 'cluster-helper' });
        if (!a.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')) throw new Error('cluster-helper not Ready on cluster-2');
        return a;
      }, { timeout: 10_000, interval: 50 });
      expect(agent.metadata.annotations['ui.giantswarm.io/display-name']).toBe('Cluster Helper (cluster-2)');
      const management = new KubeConfig();
      management.loadFromString(cmd.sandbox.kubeconfigYaml());
      const release: any = await management.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({
        group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases', namespace: 'org-initech', name: 'cluster-2-cluster-helper',
      });
      expect(release.metadata.labels['agent-platform.giantswarm.io/cluster']).toBe('cluster-2');
      expect(release.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'InstallSucceeded' });
      await cmd.stop();
      await expect(kc.makeApiClient(CoreV1Api).listNamespace()).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an OIDC CA file it cannot read, naming the flag', async () => {
    const config = { ...base, oidc: { issuerUrl: 'https://dex.lab', clientId: 'k', usernameClaim: 'email', usernamePrefix: '', groupsClaim: '', caFile: '/nonexistent/ca.pem' } };
    await expect(runSandbox(config, silentLogger(), { signal: AbortSignal.abort() })).rejects.toThrow('--oidc-ca-file /nonexistent/ca.pem: cannot read it');
  });

  it('logs the authorization mode it enforces under authorizationMode, a key loggers do not redact', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const record = (obj: object, msg?: string) => void lines.push({ ...obj, msg });
    const cmd = await run({ ...base, authorization: 'rbac' }, { debug: () => {}, info: record, error: record });
    await cmd.stop();
    const started = lines.find((l) => l.msg === 'sandbox Kubernetes API server listening');
    expect(started).toMatchObject({ authorizationMode: 'rbac' });
    expect(started).not.toHaveProperty('authorization');
  });
});

/**
 * The `agent-manager migrate` command against the sandbox through a kubeconfig, as a platform engineer runs it:
 * a dry run prints the report and exits 0 writing nothing; a namespace with an agent that cannot move exits 3
 * with the reason on the last line; the report ConfigMap is written on a real run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedNamespacePair, startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { runCli } from '../../src/cli.js';
import { silentLogger } from '../../src/log/logger.js';

let sandbox: Sandbox;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: true, controllers: true, reconcileDelayMs: 20 });
  dir = await mkdtemp(join(tmpdir(), 'migrate-cli-'));
  kubeconfig = join(dir, 'kubeconfig');
  await sandbox.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function migrate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['migrate', '--kubeconfig', kubeconfig, ...args],
    // The chart's registry is not reachable from the tests: the embedded schemas judge.
    { HTTPS_PROXY: 'http://127.0.0.1:1' },
    { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, createLogger: () => silentLogger() });
  return { code, stdout, stderr };
}

/** A release of chart 0.x as the default seed's shared source renders it. */
function seedRelease(ns: string, name: string, agent: Record<string, unknown>): void {
  sandbox.store.create('helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: ns },
      values: { agent: { name, ...agent }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] } },
  });
}

describe('agent-manager migrate', () => {
  it('prints the plan of a dry run and exits 0, writing nothing', async () => {
    seedNamespacePair(sandbox.store, 'cli-dry', 'cli-dry-tenant');
    seedRelease('cli-dry', 'sre', { runtime: 'go' });
    const r = await migrate(['--kagent-namespace', 'cli-dry', '--namespaces', 'cli-dry', '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('namespace cli-dry: chart 0.x → 2.x (source agent-2), phases expand, wait, contract ' +
      '(dry run: nothing written)');
    expect(r.stdout).toContain('+  harness: kagent');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('migrate: done (dry run: nothing was written)');
    expect(sandbox.store.find('ocirepositories', 'cli-dry', 'agent-2')).toBeUndefined();
    expect(sandbox.store.find('configmaps', 'cli-dry', 'agent-manager-migrate-report')).toBeUndefined();
  });

  it('exits 3 with the reason on the last line when an agent cannot move, the report ConfigMap written', async () => {
    seedNamespacePair(sandbox.store, 'cli-py', 'cli-py-tenant');
    seedRelease('cli-py', 'snake', { runtime: 'python' });
    const r = await migrate(['--kagent-namespace', 'cli-py', '--namespaces', 'cli-py', '--phase', 'expand']);
    expect(r.code).toBe(3);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^migrate: operator action needed: cli-py: the namespace was left untouched: snake cannot move to chart 2\.x/);
    const report = sandbox.store.find('configmaps', 'cli-py', 'agent-manager-migrate-report') as
      { data: Record<string, string> } | undefined;
    expect(report?.data.phase).toBe('expand');
    expect(report?.data.summary).toContain('refused: runtime python');
  });
});

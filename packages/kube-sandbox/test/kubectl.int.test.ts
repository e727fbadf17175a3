/**
 * The real kubectl (v1.32, found on PATH) against the sandbox with the kubeconfig
 * it writes: version, api-resources, get (server-side tables for built-in and custom
 * resources), explain, logs (refused cleanly), scale, apply -f (client-side), apply --server-side (with a conflict and
 * --force-conflicts), patch --type merge, delete, NotFound after delete, get -w, and the
 * refusal of a mistyped custom resource. Skipped, saying so, when kubectl is absent.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HR, startHarness, type Harness } from './harness.js';
import { KUBECTL, KUBECTL_ABSENT, runKubectl, type KubectlRun } from './support/kubectl.js';

const present = KUBECTL !== undefined;
const title = present
  ? 'kubectl against the sandbox'
  : `kubectl against the sandbox — SKIPPED: ${KUBECTL_ABSENT}`;

let h: Harness;
let dir: string;
let env: NodeJS.ProcessEnv;

function kubectl(...args: string[]): Promise<KubectlRun> {
  return runKubectl(args, env);
}

async function manifest(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

const hr = (name: string, interval: string, extra = '') => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: ${name}
  namespace: kagent
spec:
  interval: ${interval}
  chartRef: {kind: OCIRepository, name: agent, namespace: kagent}
  values:
    agent: {name: ${name}}
${extra}`;

describe.skipIf(!present)(title, () => {
  beforeAll(async () => {
    h = await startHarness();
    dir = await mkdtemp(join(tmpdir(), 'sandbox-kubectl-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await h.sandbox.writeKubeconfig(kubeconfig);
    env = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
  });
  afterAll(async () => {
    await h?.sandbox.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports the server version', async () => {
    const run = await kubectl('version');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Server Version: v1.32.0+sandbox');
  });

  it('lists every served resource with short names and scope', async () => {
    const run = await kubectl('api-resources', '--no-headers');
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    const byName = Object.fromEntries(rows.map((r) => [r[0], r]));
    expect(byName.helmreleases).toEqual(['helmreleases', 'hr', 'helm.toolkit.fluxcd.io/v2', 'true', 'HelmRelease']);
    expect(byName.modelconfigs).toEqual(['modelconfigs', 'mc', 'kagent.dev/v1alpha2', 'true', 'ModelConfig']);
    expect(byName.ocirepositories).toEqual(['ocirepositories', 'ocirepo', 'source.toolkit.fluxcd.io/v1', 'true', 'OCIRepository']);
    expect(byName.agents).toEqual(['agents', 'kagent.dev/v1alpha2', 'true', 'Agent']);
    expect(byName.kustomizations).toEqual(['kustomizations', 'ks', 'kustomize.toolkit.fluxcd.io/v1', 'true', 'Kustomization']);
    expect(byName.gitrepositories).toEqual(['gitrepositories', 'gitrepo', 'source.toolkit.fluxcd.io/v1', 'true', 'GitRepository']);
    expect(byName.namespaces).toEqual(['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    expect(byName.harnesses).toEqual(['harnesses', 'api.kagent.dev/v1alpha3', 'true', 'Harness']);
    expect(byName.remotemcpservers).toEqual(['remotemcpservers', 'rmcps', 'api.kagent.dev/v1alpha3', 'true', 'RemoteMCPServer']);
    expect(rows.filter((r) => r[0] === 'agents').map((r) => r[1]).sort()).toEqual(['api.kagent.dev/v1alpha3', 'kagent.dev/v1alpha2']);
    expect(Object.keys(byName).sort()).toEqual([
      'agents', 'clusterrolebindings', 'clusterroles', 'configmaps', 'controllerrevisions', 'customresourcedefinitions', 'deployments', 'events', 'gitrepositories', 'harnesses',
      'helmreleases', 'kustomizations', 'modelconfigs', 'namespaces', 'ocirepositories', 'pods', 'remotemcpservers', 'replicasets', 'rolebindings', 'roles', 'secrets', 'selfsubjectaccessreviews',
      'selfsubjectreviews', 'selfsubjectrulesreviews', 'serviceaccounts', 'subjectaccessreviews',
    ]);
  });

  it('lists the CRDs of the custom kinds, Established, with the printer columns kubectl prints, and refuses changing them', async () => {
    const list = await kubectl('get', 'crd');
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+CREATED AT$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([
      'agents.api.kagent.dev', 'agents.kagent.dev', 'gitrepositories.source.toolkit.fluxcd.io', 'harnesses.api.kagent.dev',
      'helmreleases.helm.toolkit.fluxcd.io', 'kustomizations.kustomize.toolkit.fluxcd.io', 'modelconfigs.api.kagent.dev',
      'modelconfigs.kagent.dev', 'ocirepositories.source.toolkit.fluxcd.io', 'remotemcpservers.api.kagent.dev',
    ]);
    const wait = await kubectl('wait', '--for=condition=Established', 'crd/helmreleases.helm.toolkit.fluxcd.io', '--timeout=5s');
    expect(wait).toMatchObject({ code: 0, stdout: 'customresourcedefinition.apiextensions.k8s.io/helmreleases.helm.toolkit.fluxcd.io condition met\n' });
    const crd = JSON.parse((await kubectl('get', 'crd', 'helmreleases.helm.toolkit.fluxcd.io', '-o', 'json')).stdout);
    expect(crd.spec).toMatchObject({
      group: 'helm.toolkit.fluxcd.io', scope: 'Namespaced',
      names: { kind: 'HelmRelease', listKind: 'HelmReleaseList', plural: 'helmreleases', singular: 'helmrelease', shortNames: ['hr'] },
    });
    expect(crd.spec.versions[0]).toMatchObject({ name: 'v2', served: true, storage: true, subresources: { status: {} } });
    expect(crd.spec.versions[0].additionalPrinterColumns.map((c: any) => [c.name, c.jsonPath])).toEqual([
      ['Age', '.metadata.creationTimestamp'],
      ['Ready', '.status.conditions[?(@.type=="Ready")].status'],
      ['Status', '.status.conditions[?(@.type=="Ready")].message'],
    ]);
    expect(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.chartRef).toBeDefined();
    const removal = await kubectl('delete', 'crd', 'agents.kagent.dev');
    expect(removal.code).not.toBe(0);
    expect(removal.stderr).toContain('MethodNotAllowed');
  });

  it('prints server-side tables for built-in kinds', async () => {
    const run = await kubectl('get', 'namespaces');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['agents Active', 'default Active', 'kagent Active', 'kube-system Active', 'tenant Active']);
  });

  it('prints server-side tables for custom resources across namespaces', async () => {
    const run = await kubectl('get', 'mc', '-A');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines).toEqual([
      ['NAMESPACE', 'NAME', 'PROVIDER', 'MODEL'],
      ['agents', 'default-model-config', 'Anthropic', 'claude-sonnet-4-6'],
      ['kagent', 'default-model-config', 'Anthropic', 'claude-sonnet-4-6'],
      ['kagent', 'qwen3-8-27b', 'OpenAI', 'qwen3-8-27b'],
    ]);
    // The chart 2.x line's kinds: the Harnesses by their plural, the Agents by their group.
    const harnesses = (await kubectl('get', 'harnesses', '-n', 'agents')).stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    expect(harnesses.map((l) => l.slice(0, 2))).toEqual([['NAME', 'READY'], ['claude', 'True'], ['kagent', 'True']]);
    const agents = await kubectl('get', 'agents.api.kagent.dev', '-A');
    expect(agents).toMatchObject({ code: 0, stderr: 'No resources found\n' });
    const repo = await kubectl('get', 'ocirepo', '-n', 'kagent');
    expect(repo.stdout.split('\n')[0]).toMatch(/^NAME\s+URL\s+READY\s+STATUS\s+AGE$/);
    expect(repo.stdout).toContain('oci://gsoci.azurecr.io/charts/giantswarm/agent');
  });

  it('serves Flux Kustomization and GitRepository: apply, defaults, printer columns, and a refused bad source kind', async () => {
    const file = await manifest('gitops.yaml', [
      'apiVersion: source.toolkit.fluxcd.io/v1', 'kind: GitRepository', 'metadata: {name: fleet, namespace: kagent}',
      'spec: {interval: 1m, url: "https://github.com/acme/fleet", ref: {branch: main}}', '---',
      'apiVersion: kustomize.toolkit.fluxcd.io/v1', 'kind: Kustomization', 'metadata: {name: agents, namespace: kagent}',
      'spec: {interval: 10m, path: ./clusters/prod, prune: true, sourceRef: {kind: GitRepository, name: fleet}}', '',
    ].join('\n'));
    expect((await kubectl('apply', '-f', file)).code).toBe(0);
    const repo = JSON.parse((await kubectl('get', 'gitrepo', 'fleet', '-n', 'kagent', '-o', 'json')).stdout);
    expect(repo.spec).toEqual({ interval: '1m', url: 'https://github.com/acme/fleet', ref: { branch: 'main' }, timeout: '60s' });
    const ks = JSON.parse((await kubectl('get', 'ks', 'agents', '-n', 'kagent', '-o', 'json')).stdout);
    expect(ks.spec).toEqual({ interval: '10m', path: './clusters/prod', prune: true, sourceRef: { kind: 'GitRepository', name: 'fleet' }, force: false });
    expect((await kubectl('get', 'kustomizations', '-n', 'kagent')).stdout.split('\n')[0]).toMatch(/^NAME\s+AGE\s+READY\s+STATUS$/);
    expect((await kubectl('get', 'gitrepositories', '-n', 'kagent')).stdout.split('\n')[0]).toMatch(/^NAME\s+URL\s+AGE\s+READY\s+STATUS$/);
    const bad = await manifest('bad-ks.yaml', [
      'apiVersion: kustomize.toolkit.fluxcd.io/v1', 'kind: Kustomization', 'metadata: {name: bad, namespace: kagent}',
      'spec: {interval: 10m, sourceRef: {kind: HelmRepository, name: fleet}}', '',
    ].join('\n'));
    const refused = await kubectl('apply', '-f', bad);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('spec.sourceRef.kind');
    expect(refused.stderr).toContain('spec.prune');
    expect((await kubectl('delete', '-f', file)).code).toBe(0);
  });

  it('creates and then updates with client-side apply -f', async () => {
    const file = await manifest('hr.yaml', hr('kubectl-hr', '10m'));
    const created = await kubectl('apply', '-f', file);
    expect(created.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io/kubectl-hr created');
    const unchanged = await kubectl('apply', '-f', file);
    expect(unchanged.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io/kubectl-hr unchanged');
    await manifest('hr.yaml', hr('kubectl-hr', '5m'));
    const configured = await kubectl('apply', '-f', file);
    expect(configured.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io/kubectl-hr configured');
    const stored = h.sandbox.store.get('hr', 'kagent', 'kubectl-hr') as any;
    expect(stored.spec.interval).toBe('5m');
    expect(stored.metadata.generation).toBe(2);
    expect(stored.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"interval":"5m"');
  });

  it('applies a built-in kind with strategic merge (containers merged by name)', async () => {
    const deployment = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: tenant}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: main, image: ${image}}
`;
    const file = await manifest('deploy.yaml', deployment('nginx:1'));
    expect((await kubectl('apply', '-f', file)).code).toBe(0);
    await manifest('deploy.yaml', deployment('nginx:2'));
    const run = await kubectl('apply', '-f', file);
    expect(run.stdout.trim()).toBe('deployment.apps/web configured');
    const got = await kubectl('get', 'deploy', 'web', '-n', 'tenant', '-o', 'jsonpath={.spec.template.spec.containers[0].image}');
    expect(got.stdout).toBe('nginx:2');
    const table = await kubectl('get', 'deploy', '-n', 'tenant');
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/);
  });

  it('applies server-side, refuses a conflicting manager and takes over with --force-conflicts', async () => {
    const file = await manifest('ssa.yaml', hr('kubectl-ssa', '10m'));
    const applied = await kubectl('apply', '--server-side', '-f', file);
    expect(applied.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io/kubectl-ssa serverside-applied');
    await manifest('ssa.yaml', hr('kubectl-ssa', '1m'));
    const conflict = await kubectl('apply', '--server-side', '--field-manager', 'other', '-f', file);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.interval');
    const forced = await kubectl('apply', '--server-side', '--field-manager', 'other', '--force-conflicts', '-f', file);
    expect(forced.code).toBe(0);
    expect((h.sandbox.store.get('hr', 'kagent', 'kubectl-ssa') as any).spec.interval).toBe('1m');
  });

  it('patches with --type merge', async () => {
    const run = await kubectl('patch', 'hr', 'kubectl-hr', '-n', 'kagent', '--type', 'merge', '-p', '{"spec":{"suspend":true}}');
    expect(run.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io/kubectl-hr patched');
    const got = await kubectl('get', 'hr', 'kubectl-hr', '-n', 'kagent', '-o', 'jsonpath={.spec.suspend}');
    expect(got.stdout).toBe('true');
  });

  it('deletes, and then reports NotFound', async () => {
    const deleted = await kubectl('delete', 'hr', 'kubectl-hr', '-n', 'kagent');
    expect(deleted.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io "kubectl-hr" deleted');
    const missing = await kubectl('get', 'hr', 'kubectl-hr', '-n', 'kagent');
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error from server (NotFound): helmreleases.helm.toolkit.fluxcd.io "kubectl-hr" not found');
  });

  it('refuses a mistyped custom resource with the field errors', async () => {
    const file = await manifest('bad.yaml', hr('bad', '10').replace('kind: OCIRepository', 'kind: Nope'));
    const run = await kubectl('apply', '-f', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The HelmRelease "bad" is invalid:');
    expect(run.stderr).toContain('spec.interval: Invalid value: "integer": spec.interval in body must be of type string: "integer"');
    expect(run.stderr).toContain('spec.chartRef.kind: Unsupported value: "Nope"');
    expect(h.sandbox.store.find('hr', 'kagent', 'bad')).toBeUndefined();
  });

  it('refuses an unknown field (kubectl validates strictly on the server)', async () => {
    const file = await manifest('unknown.yaml', hr('unknown', '10m', '  bogus: 1\n'));
    const run = await kubectl('apply', '-f', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
  });

  it('explains a custom resource and a built-in kind from the OpenAPI v3 component schemas', async () => {
    const hr = await kubectl('explain', 'helmreleases.spec.chartRef');
    expect(hr.code).toBe(0);
    expect(hr.stdout).toContain('KIND:       HelmRelease');
    expect(hr.stdout).toMatch(/kind\s+<string> -required-/);
    expect(hr.stdout).toMatch(/name\s+<string> -required-/);
    const pod = await kubectl('explain', 'pods.spec.containers');
    expect(pod.code).toBe(0);
    expect(pod.stdout).toMatch(/image\s+<string>/);
  });

  it('answers kubectl logs with a clean error saying the sandbox runs no containers', async () => {
    h.sandbox.store.create('pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'tenant' },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    });
    const run = await kubectl('logs', '-n', 'tenant', 'web-1');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Error from server (BadRequest): pod "web-1" has no logs: the sandbox simulates pods and runs no containers');
    const missing = await kubectl('logs', '-n', 'tenant', 'web-2');
    expect(missing.stderr).toContain('pods "web-2" not found');
  });

  it('scales a deployment with kubectl scale, checking --current-replicas', async () => {
    const deployment = await manifest('web.yaml', `apiVersion: apps/v1
kind: Deployment
metadata: {name: scaled, namespace: tenant}
spec:
  selector: {matchLabels: {app: scaled}}
  template:
    metadata: {labels: {app: scaled}}
    spec: {containers: [{name: web, image: nginx}]}
`);
    expect((await kubectl('apply', '-f', deployment)).code).toBe(0);
    const run = await kubectl('scale', 'deployment', 'scaled', '-n', 'tenant', '--replicas=3');
    expect(run).toMatchObject({ code: 0, stdout: 'deployment.apps/scaled scaled\n' });
    expect((h.sandbox.store.find('deployments', 'tenant', 'scaled') as { spec: { replicas: number } }).spec.replicas).toBe(3);
    const wrong = await kubectl('scale', 'deployment', 'scaled', '-n', 'tenant', '--replicas=1', '--current-replicas=2');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('Expected replicas to be 2, was 3');
  });

  it('streams changes with get -w', async () => {
    const child = spawn(KUBECTL!, ['get', 'configmaps', '-n', 'tenant', '-w', '--output-watch-events'], { env });
    let out = '';
    const seen = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        // Whole rows only: a chunk can end inside one ("MODIFIED" before its name).
        if (/MODIFIED\s+watched/.test(out)) resolve();
      });
    });
    try {
      // Once kubectl's watch has arrived, every later change reaches it (it watches from
      // its list's resourceVersion, so nothing between the list and the watch is missed).
      const watches = h.sandbox.counters.count({ verb: 'watch', resource: 'configmaps' });
      while (h.sandbox.counters.count({ verb: 'watch', resource: 'configmaps' }) === watches) {
        if (child.exitCode !== null) throw new Error(`kubectl get -w exited (${child.exitCode})`);
        await new Promise((r) => setTimeout(r, 10));
      }
      await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'watched' } } });
      await h.core.patchNamespacedConfigMap({ namespace: 'tenant', name: 'watched', body: [{ op: 'add', path: '/data', value: { a: '1' } }] });
      await seen;
    } finally {
      child.kill();
    }
    expect(out).toMatch(/ADDED\s+watched/);
    expect(out).toMatch(/MODIFIED\s+watched/);
  });

  it('reads what client-node wrote and vice versa', async () => {
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'tenant', body: {
      apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'from-node', namespace: 'tenant' },
      spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent' } },
    } });
    const run = await kubectl('get', 'hr', '-n', 'tenant', '-o', 'name');
    expect(run.stdout.trim()).toBe('helmrelease.helm.toolkit.fluxcd.io/from-node');
  });
});

/**
 * Starting and stopping a sandbox: listen addresses (loopback only), tokens, seeding,
 * and the kubeconfig it writes.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { connect } from 'node:tls';
import { generateTls, parseListen, startSandbox } from './index.js';

describe('parseListen', () => {
  it.each([
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    [':6443', { host: '127.0.0.1', port: 6443 }],
    ['localhost:8443', { host: 'localhost', port: 8443 }],
    ['[::1]:7000', { host: '::1', port: 7000 }],
  ])('reads %s', (listen, expected) => {
    expect(parseListen(listen)).toEqual(expected);
  });

  it.each([['0.0.0.0:6443', 'loopback only'], ['10.0.0.1:6443', 'loopback only'], ['6443', 'host:port']])('refuses %s', (listen, why) => {
    expect(() => parseListen(listen)).toThrow(why);
  });
});

describe('startSandbox', () => {
  it('seeds the namespaces, model configs and chart repository agent-manager expects', async () => {
    const sandbox = await startSandbox();
    try {
      const names = (resource: string, namespace = '') => sandbox.store.list(resource, { namespace }).items.map((o: any) => o.metadata.name);
      expect(names('namespaces')).toEqual(['agents', 'default', 'kagent', 'kube-system', 'tenant']);
      expect(names('mc', 'kagent')).toEqual(['default-model-config', 'qwen3-8-27b']);
      const mc = sandbox.store.get('mc', 'kagent', 'default-model-config') as any;
      expect(mc.spec).toEqual({ provider: 'Anthropic', model: 'claude-sonnet-4-6' });
      expect(mc.status.conditions[0]).toMatchObject({ type: 'Accepted', status: 'True', reason: 'ModelConfigReconciled' });
      expect((sandbox.store.get('mc', 'kagent', 'qwen3-8-27b') as any).spec).toEqual({ provider: 'OpenAI', model: 'qwen3-8-27b' });
      const repo = sandbox.store.get('ocirepositories', 'kagent', 'agent') as any;
      expect(repo.spec).toEqual({ interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: '0.x' }, provider: 'generic', timeout: '60s' });
      expect(repo.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'agent-manager' });
      expect(names('harnesses', 'kagent')).toEqual(['kagent']);
      expect(names('modelconfigs.api.kagent.dev', 'kagent')).toEqual(['default-model-config', 'qwen3-8-27b']);
      // Namespace agents is on the chart's 2.x line: its source, its Harnesses, its ModelConfig in both groups.
      expect((sandbox.store.get('ocirepositories', 'agents', 'agent') as any).spec.ref).toEqual({ semver: '2.x' });
      expect(names('harnesses', 'agents')).toEqual(['claude', 'kagent']);
      expect((sandbox.store.get('harnesses', 'agents', 'claude') as any).spec).toEqual({ claude: {} });
      expect(names('modelconfigs.api.kagent.dev', 'agents')).toEqual(['default-model-config']);
      expect(names('modelconfigs.kagent.dev', 'agents')).toEqual(['default-model-config']);
      expect(sandbox.store.get('roles', 'agents', 'agent-manager')).toBeDefined();
      expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.adminToken).not.toBe(sandbox.serviceAccountToken);
    } finally {
      await sandbox.close();
    }
  });

  it('serves with the CA it is given, while its workload clusters generate CAs of their own', async () => {
    const tls = await generateTls();
    const sandbox = await startSandbox({ seed: false, tls, workloadClusters: 1 });
    try {
      expect(sandbox.caPem).toBe(tls.caPem);
      const workload = sandbox.workloads.get('cluster-1')!;
      expect(workload.caPem).not.toBe(tls.caPem);
      // The certificate served is the one given, trusted through the given CA only.
      const served = await new Promise<string>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: Number(new URL(sandbox.url).port), ca: tls.caPem }, () => {
          resolve(socket.getPeerX509Certificate()!.toString());
          socket.end();
        });
        socket.on('error', reject);
      });
      expect(served.replace(/\r?\n/g, '')).toBe(tls.certPem.replace(/\r?\n/g, ''));
    } finally {
      await sandbox.close();
    }
  });

  it('starts empty without seed and serves on [::1]', async () => {
    const sandbox = await startSandbox({ seed: false, listen: '[::1]:0' });
    try {
      expect(sandbox.url).toMatch(/^https:\/\/\[::1\]:\d+$/);
      expect(sandbox.store.list('namespaces').items).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('writes a kubeconfig with the CA and a token, readable by its owner only', async () => {
    const sandbox = await startSandbox({ seed: false });
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-kc-'));
    try {
      const path = join(dir, 'config');
      await sandbox.writeKubeconfig(path);
      const doc = parse(await readFile(path, 'utf8'));
      expect(doc['current-context']).toBe('sandbox');
      expect(doc.clusters[0].cluster.server).toBe(sandbox.url);
      expect(Buffer.from(doc.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(sandbox.caPem);
      expect(doc.users[0].user.token).toBe(sandbox.adminToken);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      const other = parse(sandbox.kubeconfigYaml({ token: 't', name: 'alice' }));
      expect(other.users).toEqual([{ name: 'alice', user: { token: 't' } }]);
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives agent-manager the least-privilege Role of our Helm chart in both managed namespaces', async () => {
    const sandbox = await startSandbox();
    try {
      for (const namespace of ['kagent', 'tenant']) {
        const binding = sandbox.store.get('rolebindings', namespace, 'agent-manager') as any;
        expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'agent-manager', namespace: 'kagent' }]);
        const role = sandbox.store.get('roles', namespace, 'agent-manager') as any;
        expect(role.rules[0]).toEqual({ apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'] });
      }
    } finally {
      await sandbox.close();
    }
  });

  it('seeds the sample platform: a GitOps release, a bare Agent, a suspended installed release, the people\'s roles', async () => {
    const sandbox = await startSandbox({ seed: 'samples' });
    try {
      const gitops = sandbox.store.get('helmreleases', 'kagent', 'incident-triage') as any;
      expect(gitops.metadata.labels['kustomize.toolkit.fluxcd.io/name']).toBe('platform-agents');
      const bare = sandbox.store.get('agents', 'kagent', 'kubectl-helper') as any;
      expect(bare.metadata.labels ?? {}).not.toHaveProperty('helm.toolkit.fluxcd.io/name');
      const paused = sandbox.store.get('helmreleases', 'kagent', 'paused-reviewer') as any;
      expect(paused.spec.suspend).toBe(true);
      expect(paused.metadata.finalizers).toEqual(['finalizers.fluxcd.io']);
      expect(paused.status.history[0]).toMatchObject({ version: 1, status: 'deployed' });
      expect((sandbox.store.get('agents', 'kagent', 'paused-reviewer') as any).metadata.labels['helm.toolkit.fluxcd.io/name']).toBe('paused-reviewer');
      expect((sandbox.store.get('rolebindings', 'tenant', 'platform-admins') as any).roleRef.name).toBe('agent-platform-admin');
      expect((sandbox.store.get('rolebindings', 'kagent', 'platform-viewers') as any).subjects[0]).toMatchObject({ kind: 'Group', name: 'platform-viewers' });
      expect(sandbox.controllers).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });

  it('turns RBAC on later with the bootstrap ClusterRoles', async () => {
    const sandbox = await startSandbox({ seed: false });
    try {
      expect(sandbox.store.find('clusterroles', '', 'system:discovery')).toBeUndefined();
      sandbox.enableRbac();
      expect(sandbox.store.get('clusterrolebindings', '', 'system:discovery')).toMatchObject({ subjects: [{ kind: 'Group', name: 'system:authenticated' }] });
      expect(await sandbox.authorizer.authorize({
        user: { username: 'x', groups: ['system:authenticated'] }, verb: 'list', isResourceRequest: true, path: '/api/v1/pods',
        apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: '', name: '',
      })).toEqual({ allowed: false, reason: '' });
    } finally {
      await sandbox.close();
    }
  });

  it('stops its controllers when it closes', async () => {
    const sandbox = await startSandbox({ controllers: true });
    expect(sandbox.controllers?.names).toEqual([
      'source-controller', 'helm-controller', 'kagent-agents', 'kagent-modelconfigs', 'kagent-v2-agents', 'kagent-v2-harnesses',
      'kagent-v2-modelconfigs', 'kagent-v2-remotemcpservers', 'deployment-controller', 'replicaset-controller',
      'garbage-collector', 'kubelet',
    ]);
    await sandbox.close();
    expect(sandbox.store.objects.hub.subscriberCount).toBe(0);
  });
});

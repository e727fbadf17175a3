/**
 * Starting and stopping a sandbox: listen addresses (loopback only), tokens, seeding,
 * and the kubeconfig it writes.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseListen, startSandbox } from './index.js';

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
      expect(names('namespaces')).toEqual(['default', 'kagent', 'kube-system', 'tenant']);
      expect(names('mc', 'kagent')).toEqual(['default-model-config', 'qwen3-8-27b']);
      const mc = sandbox.store.get('mc', 'kagent', 'default-model-config') as any;
      expect(mc.spec).toEqual({ provider: 'Anthropic', model: 'claude-sonnet-4-6' });
      expect(mc.status.conditions[0]).toMatchObject({ type: 'Accepted', status: 'True', reason: 'ModelConfigReconciled' });
      expect((sandbox.store.get('mc', 'kagent', 'qwen3-8-27b') as any).spec).toEqual({ provider: 'OpenAI', model: 'qwen3-8-27b' });
      const repo = sandbox.store.get('ocirepositories', 'kagent', 'agent') as any;
      expect(repo.spec).toEqual({ interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: 'x.x.x' }, provider: 'generic', timeout: '60s' });
      expect(repo.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'agent-manager' });
      expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.adminToken).not.toBe(sandbox.serviceAccountToken);
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
});

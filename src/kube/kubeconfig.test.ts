import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { loadBaseKubeConfig } from './kubeconfig.js';

const saved = {
  KUBECONFIG: process.env.KUBECONFIG, HOME: process.env.HOME,
  KUBERNETES_SERVICE_HOST: process.env.KUBERNETES_SERVICE_HOST,
};
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const KUBECONFIG = `
apiVersion: v1
kind: Config
clusters: [{name: lab, cluster: {server: "https://127.0.0.1:6443"}}, {name: other, cluster: {server: "https://127.0.0.2:6443"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: lab, context: {cluster: lab, user: u}}, {name: other, context: {cluster: other, user: u}}]
current-context: lab
`;

describe('loadBaseKubeConfig', () => {
  it('loads a kubeconfig file and switches to the asked context', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'config'), KUBECONFIG);
    const kc = loadBaseKubeConfig({ kubeconfig: join(dir, 'config'), context: 'other' });
    expect(kc.getCurrentCluster()?.server).toBe('https://127.0.0.2:6443');
  });

  it('refuses to invent a cluster at localhost:8080 when there is no kubeconfig at all', () => {
    const empty = mkdtempSync(join(tmpdir(), 'home-'));
    onTestFinished(() => rmSync(empty, { recursive: true, force: true }));
    delete process.env.KUBECONFIG;
    delete process.env.KUBERNETES_SERVICE_HOST;
    process.env.HOME = empty;
    expect(() => loadBaseKubeConfig({})).toThrow(/agent-manager needs Kubernetes access: no kubeconfig found/);
  });

  it('names the missing context', () => {
    expect(() => loadBaseKubeConfig({ kubeconfigYaml: KUBECONFIG, context: 'nope' })).toThrow(/agent-manager needs Kubernetes access/);
  });
});

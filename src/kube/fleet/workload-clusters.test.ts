import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import type { Gvr, KubeObject, KubePort } from '../../service/ports.js';
import { SecretWorkloadClusters } from './workload-clusters.js';
import { workloadRefusal } from './workload-errors.js';
import { unauthenticated } from '../../core/errors.js';

const KUBECONFIG = [
  'apiVersion: v1', 'kind: Config', 'current-context: c',
  'clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]',
  'users: [{name: u, user: {token: t}}]', 'contexts: [{name: c, context: {cluster: c, user: u}}]',
].join('\n');

/** Secrets of one namespace, at the port: what the ServiceAccount reads. */
class Secrets implements Partial<KubePort> {
  readonly objects = new Map<string, KubeObject>();
  put(name: string, value: string | undefined, resourceVersion: string): void {
    this.objects.set(name, {
      apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'org-acme', resourceVersion },
      data: value === undefined ? {} : { value: Buffer.from(value).toString('base64') },
    });
  }

  async get(_gvr: Gvr, _ns: string, name: string) {
    return this.objects.get(name);
  }

  async list() {
    return [...this.objects.values()];
  }
}

const open = (secrets: Secrets) => new SecretWorkloadClusters({ secrets: secrets as unknown as KubePort, identity: 'serviceAccount', log: silentLogger() });
const alpha = { organization: 'acme', cluster: 'alpha' };

describe('SecretWorkloadClusters', () => {
  it('keeps one provider per cluster while the Secret is unchanged and drops it when the Secret changes', async () => {
    const secrets = new Secrets();
    secrets.put('alpha-kubeconfig', KUBECONFIG, '1');
    const clusters = open(secrets);
    const first = await clusters.provider(alpha);
    expect(await clusters.provider(alpha)).toBe(first);
    secrets.put('alpha-kubeconfig', KUBECONFIG, '2');
    expect(await clusters.provider(alpha)).not.toBe(first);
    clusters.close();
  });

  it('refuses a missing Secret, one without "value", and one that holds no kubeconfig, naming the Secret only', async () => {
    const secrets = new Secrets();
    const clusters = open(secrets);
    await expect(clusters.provider(alpha)).rejects.toThrow('has no kubeconfig Secret org-acme/alpha-kubeconfig');
    secrets.put('alpha-kubeconfig', undefined, '1');
    await expect(clusters.provider(alpha)).rejects.toThrow('the kubeconfig Secret org-acme/alpha-kubeconfig has no key "value"');
    secrets.put('alpha-kubeconfig', 'kind: Config\ncurrent-context: none\n', '2');
    await expect(clusters.provider(alpha)).rejects.toThrow(/^invalid request: the kubeconfig Secret org-acme\/alpha-kubeconfig holds no usable kubeconfig/);
  });

  it('never quotes the text of a Secret that does not parse: a parser quotes the line it failed on, tokens and all', async () => {
    const secrets = new Secrets();
    const clusters = open(secrets);
    secrets.put('alpha-kubeconfig', 'apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: "SUPERSECRETTOKEN123\n', '1');
    const refusal = await clusters.provider(alpha).then(() => undefined, (err: Error) => err);
    expect(refusal?.message).toBe('invalid request: the kubeconfig Secret org-acme/alpha-kubeconfig holds no usable kubeconfig ' +
      '(it does not parse as a kubeconfig)');
    clusters.close();
  });

  it('names the clusters of an organization after its *-kubeconfig Secrets, sorted', async () => {
    const secrets = new Secrets();
    for (const name of ['beta-kubeconfig', 'alpha-kubeconfig', 'registry-credentials', '-kubeconfig']) secrets.put(name, KUBECONFIG, '1');
    expect(await open(secrets).clusters('acme')).toEqual(['alpha', 'beta']);
  });
});

describe('workloadRefusal', () => {
  it('says after the refusal that the workload cluster must trust the identity provider, once', () => {
    const refused = workloadRefusal(unauthenticated("get agent kagent/sre: the API server refused the caller's token (401): Unauthorized"));
    expect((refused as Error).message).toBe("unauthenticated: get agent kagent/sre: the API server refused the caller's token (401); "
      + "a workload cluster's apiserver must trust the installation's identity provider (OIDC issuer and client id set when the cluster is created)"
      + ': Unauthorized');
    expect(workloadRefusal(refused)).toBe(refused);
  });
});

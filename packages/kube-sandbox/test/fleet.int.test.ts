/**
 * The sandbox as a fleet: a management cluster with workload clusters `alpha` and `beta`,
 * driven through @kubernetes/client-node over HTTPS. Cluster API's kubeconfig Secrets work
 * as kubeconfigs; a release placed with `spec.kubeConfig` installs into, and uninstalls
 * from, the workload cluster (Helm's records too); a missing Secret or key and a closed
 * workload cluster fail as helm-controller reports them. One fleet for the file.
 */
import { AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placedRelease, startSandbox, type Sandbox } from '../src/index.js';
import { eventually, HR } from './harness.js';

const AGENTS = { group: 'kagent.dev', version: 'v1alpha2', plural: 'agents' } as const;
let fleet: Sandbox;
let management: KubeConfig;

const kubeConfigOf = (yaml: string): KubeConfig => {
  const kc = new KubeConfig();
  kc.loadFromString(yaml);
  return kc;
};

/** The kubeconfig in Cluster API's Secret for `cluster`, read over the management API. */
async function secretKubeconfig(cluster: string): Promise<KubeConfig> {
  const secret = await management.makeApiClient(CoreV1Api).readNamespacedSecret({ name: `${cluster}-kubeconfig`, namespace: 'org-acme' });
  return kubeConfigOf(Buffer.from(secret.data!.value!, 'base64').toString('utf8'));
}

const condition = (obj: any, type: string): any => obj?.status?.conditions?.find((c: any) => c.type === type);

/** The placed release once its Ready condition has `reason`. */
function releaseWith(name: string, reason: string): Promise<any> {
  const custom = management.makeApiClient(CustomObjectsApi);
  return eventually(async () => {
    const hr: any = await custom.getNamespacedCustomObject({ ...HR, namespace: 'org-acme', name });
    return condition(hr, 'Ready')?.reason === reason ? hr : undefined;
  }, 10_000, `${name} Ready reason ${reason}`);
}

beforeAll(async () => {
  fleet = await startSandbox({ controllers: true, reconcileDelayMs: 10, a2a: false, workloadClusters: ['alpha', 'beta'] });
  management = kubeConfigOf(fleet.kubeconfigYaml());
});

afterAll(async () => {
  await fleet?.close();
});

describe('a management sandbox with workload clusters', () => {
  it('holds Cluster API\'s kubeconfig Secret of each workload cluster in org-acme, and each works as a kubeconfig', async () => {
    expect(fleet.organization).toBe('acme');
    expect([...fleet.workloads.keys()]).toEqual(['alpha', 'beta']);
    const secrets = await management.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'org-acme' });
    expect(secrets.items.map((s) => [s.metadata!.name, s.type, s.metadata!.labels!['cluster.x-k8s.io/cluster-name']]))
      .toEqual([['alpha-kubeconfig', 'cluster.x-k8s.io/secret', 'alpha'], ['beta-kubeconfig', 'cluster.x-k8s.io/secret', 'beta']]);
    const alpha = await secretKubeconfig('alpha');
    expect(alpha.getCurrentCluster()!.server).toBe(fleet.workloads.get('alpha')!.url);
    expect(alpha.getCurrentCluster()!.server).not.toBe(fleet.url);
    expect(alpha.getCurrentContext()).toBe('alpha-admin@alpha');
    const namespaces = (await alpha.makeApiClient(CoreV1Api).listNamespace()).items.map((n) => n.metadata!.name);
    expect(namespaces).toContain('kagent');
    expect(namespaces).not.toContain('org-acme');
    const models: any = await alpha.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ group: 'kagent.dev', version: 'v1alpha2', plural: 'modelconfigs', namespace: 'kagent' });
    expect(models.items.map((m: any) => m.metadata.name)).toEqual(['default-model-config', 'qwen3-8-27b']);
  });

  it('installs a placed release into the workload cluster\'s target namespace, and upgrades it there', async () => {
    const custom = management.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...HR, namespace: 'org-acme', body: placedRelease('acme', 'alpha', 'sre', { displayName: 'SRE' }) });
    const hr = await releaseWith('alpha-sre', 'InstallSucceeded');
    expect(condition(hr, 'Ready').message).toMatch(/^Helm install succeeded for release kagent\/sre\.v1 with chart agent@/);
    expect(hr.status.storageNamespace).toBe('kagent');
    const alpha = await secretKubeconfig('alpha');
    const agent: any = await eventually(async () => {
      const a: any = await alpha.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({ ...AGENTS, namespace: 'kagent', name: 'sre' });
      return condition(a, 'Ready')?.status === 'True' ? a : undefined;
    }, 10_000, 'the Agent on alpha Ready');
    expect(agent.metadata.labels).toMatchObject({ 'helm.toolkit.fluxcd.io/name': 'alpha-sre', 'helm.toolkit.fluxcd.io/namespace': 'org-acme' });
    expect(agent.metadata.annotations['meta.helm.sh/release-name']).toBe('sre');
    const deployment = await alpha.makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'sre', namespace: 'kagent' });
    expect(deployment.metadata!.name).toBe('sre');
    const pods = await eventually(async () => {
      const list = await alpha.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'kagent' });
      const running = list.items.filter((p) => p.metadata!.name!.startsWith('sre-') && p.status?.phase === 'Running');
      return running.length > 0 ? running : undefined;
    }, 10_000, 'a running pod of sre on alpha');
    expect(pods).toHaveLength(1);
    // Nothing of it on the management cluster or on beta.
    const managementAgents: any = await custom.listClusterCustomObject(AGENTS);
    expect(managementAgents.items.map((a: any) => a.metadata.name)).not.toContain('sre');
    const beta = await secretKubeconfig('beta');
    const betaAgents: any = await beta.makeApiClient(CustomObjectsApi).listClusterCustomObject(AGENTS);
    expect(betaAgents.items).toEqual([]);
    // Helm's release records live in the storage namespace of the workload cluster.
    const records = await alpha.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'kagent', labelSelector: 'owner=helm,name=sre' });
    expect(records.items.map((s) => [s.metadata!.name, s.type, s.metadata!.labels!.status])).toEqual([['sh.helm.release.v1.sre.v1', 'helm.sh/release.v1', 'deployed']]);

    const current: any = await custom.getNamespacedCustomObject({ ...HR, namespace: 'org-acme', name: 'alpha-sre' });
    current.spec.values.agent.description = 'Keeps alpha up.';
    await custom.replaceNamespacedCustomObject({ ...HR, namespace: 'org-acme', name: 'alpha-sre', body: current });
    await releaseWith('alpha-sre', 'UpgradeSucceeded');
    const upgraded: any = await alpha.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({ ...AGENTS, namespace: 'kagent', name: 'sre' });
    expect(upgraded.spec.description).toBe('Keeps alpha up.');
    const after = await alpha.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'kagent', labelSelector: 'owner=helm,name=sre' });
    expect(after.items.map((s) => [s.metadata!.name, s.metadata!.labels!.status]))
      .toEqual([['sh.helm.release.v1.sre.v1', 'superseded'], ['sh.helm.release.v1.sre.v2', 'deployed']]);
  });

  it('uninstalls a deleted placed release from the workload cluster: the Agent, its Deployment, pods and Helm\'s records go', async () => {
    const custom = management.makeApiClient(CustomObjectsApi);
    await custom.deleteNamespacedCustomObject({ ...HR, namespace: 'org-acme', name: 'alpha-sre' });
    const alpha = await secretKubeconfig('alpha');
    await eventually(async () => {
      const list = await custom.listNamespacedCustomObject({ ...HR, namespace: 'org-acme' }) as any;
      return list.items.some((r: any) => r.metadata.name === 'alpha-sre') ? undefined : true;
    }, 10_000, 'the release gone');
    await eventually(async () => {
      const [agents, deployments, pods] = await Promise.all([
        alpha.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ ...AGENTS, namespace: 'kagent' }) as Promise<any>,
        alpha.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace: 'kagent' }),
        alpha.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'kagent' }),
      ]);
      return agents.items.length + deployments.items.length + pods.items.length === 0 ? true : undefined;
    }, 10_000, 'the Agent, Deployment and pods gone from alpha');
    const records = await alpha.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'kagent', labelSelector: 'owner=helm' });
    expect(records.items).toEqual([]);
  });

  it('reports a missing kubeconfig Secret as helm-controller does, and installs once the Secret appears', async () => {
    const custom = management.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...HR, namespace: 'org-acme', body: placedRelease('acme', 'gamma', 'sre', {}) });
    const hr = await releaseWith('gamma-sre', 'RESTClientError');
    expect(condition(hr, 'Ready')).toMatchObject({
      status: 'False', message: 'could not get KubeConfig secret \'org-acme/gamma-kubeconfig\': secrets "gamma-kubeconfig" not found',
    });
    // A Secret for gamma that points at alpha: the release is looked at again when it appears.
    const alphaSecret = await management.makeApiClient(CoreV1Api).readNamespacedSecret({ name: 'alpha-kubeconfig', namespace: 'org-acme' });
    await management.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace: 'org-acme', body: { metadata: { name: 'gamma-kubeconfig' }, type: 'cluster.x-k8s.io/secret', data: alphaSecret.data },
    });
    await releaseWith('gamma-sre', 'InstallSucceeded');
    await custom.deleteNamespacedCustomObject({ ...HR, namespace: 'org-acme', name: 'gamma-sre' });
  });

  it('reports a kubeconfig Secret without the key as helm-controller does', async () => {
    await management.makeApiClient(CoreV1Api).createNamespacedSecret({
      namespace: 'org-acme', body: { metadata: { name: 'delta-kubeconfig' }, data: { other: Buffer.from('x').toString('base64') } },
    });
    await management.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({ ...HR, namespace: 'org-acme', body: placedRelease('acme', 'delta', 'sre', {}) });
    const hr = await releaseWith('delta-sre', 'RESTClientError');
    expect(condition(hr, 'Ready').message).toBe('KubeConfig secret \'org-acme/delta-kubeconfig\' does not contain a \'value\' key with data');
  });

  it('lets agent-manager\'s ServiceAccount manage the organization\'s releases and read its kubeconfig Secrets under RBAC, and no more', async () => {
    fleet.enableRbac();
    const sa = kubeConfigOf(fleet.kubeconfigYaml({ token: fleet.serviceAccountToken, name: 'agent-manager' }));
    const releases: any = await sa.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ ...HR, namespace: 'org-acme' });
    expect(releases.items.length).toBeGreaterThan(0);
    const secrets = await sa.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'org-acme' });
    expect(secrets.items.map((s) => s.metadata!.name)).toContain('alpha-kubeconfig');
    await expect(sa.makeApiClient(CoreV1Api).deleteNamespacedSecret({ name: 'alpha-kubeconfig', namespace: 'org-acme' })).rejects.toMatchObject({ code: 403 });
    await expect(sa.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'kube-system' })).rejects.toMatchObject({ code: 403 });
  });

  it('a closed workload cluster refuses connections: a release placed on it cannot be installed or uninstalled', async () => {
    const beta = fleet.workloads.get('beta')!;
    const betaUrl = beta.url;
    const kc = await secretKubeconfig('beta');
    const custom = management.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...HR, namespace: 'org-acme', body: placedRelease('acme', 'beta', 'sre', {}) });
    await releaseWith('beta-sre', 'InstallSucceeded');
    await beta.close();
    await expect(kc.makeApiClient(CoreV1Api).listNamespace()).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    const refused = `dial tcp ${new URL(betaUrl).host}: connect: connection refused`;

    await custom.createNamespacedCustomObject({ ...HR, namespace: 'org-acme', body: placedRelease('acme', 'beta', 'ops', {}) });
    const hr = await releaseWith('beta-ops', 'StateError');
    expect(condition(hr, 'Ready').message).toBe('Could not determine release state: failed to retrieve last release from storage: query: '
      + `failed to query with labels: Get "${betaUrl}/api/v1/namespaces/kagent/secrets?labelSelector=name%3Dops%2Cowner%3Dhelm": ${refused}`);

    await custom.deleteNamespacedCustomObject({ ...HR, namespace: 'org-acme', name: 'beta-sre' });
    const stuck = await releaseWith('beta-sre', 'UninstallFailed');
    expect(stuck.metadata.deletionTimestamp).toBeDefined();
    expect(stuck.metadata.finalizers).toEqual(['finalizers.fluxcd.io']);
    expect(condition(stuck, 'Ready').message).toMatch(/^Helm uninstall failed for release kagent\/sre: Get "https:.*connect: connection refused$/);
    // The management cluster and alpha still answer.
    expect((await management.makeApiClient(CoreV1Api).listNamespace()).items.length).toBeGreaterThan(0);
    expect((await (await secretKubeconfig('alpha')).makeApiClient(CoreV1Api).listNamespace()).items.length).toBeGreaterThan(0);
  });
});

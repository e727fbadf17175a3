/**
 * A management sandbox and a workload sandbox standing in for a Cluster API fleet: the
 * management one holds `org-acme` with the kubeconfig Secret `alpha-kubeconfig` (key
 * `value`) of the workload one, as Cluster API writes it. Controllers stay off: the tests
 * see exactly what the service wrote and where.
 */
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { silentLogger } from '../../src/log/logger.js';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { openWorkloadClusters } from '../../src/kube/fleet/workload-clusters.js';
import { startServiceFixture, type FixtureOptions, type ServiceFixture } from '../support/service/fixture.js';

export const ORG = 'acme';
export const ORG_NS = 'org-acme';
export const TARGET = { organization: ORG, cluster: 'alpha' } as const;

export interface Fleet {
  f: ServiceFixture;
  alpha: Sandbox;
  close(): Promise<void>;
}

/** Write `org-<org>/<cluster>-kubeconfig` on the management sandbox for `workload`. */
export function writeKubeconfigSecret(management: Sandbox, cluster: string, kubeconfig: string | undefined): void {
  const data = kubeconfig === undefined ? {} : { value: Buffer.from(kubeconfig, 'utf8').toString('base64') };
  management.store.create('secrets', {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: `${cluster}-kubeconfig`, namespace: ORG_NS }, type: 'cluster.x-k8s.io/secret', data,
  });
}

export async function startFleet(options: FixtureOptions & { identity?: 'caller' | 'serviceAccount' } = {}): Promise<Fleet> {
  const alpha = await startSandbox({ seed: true });
  const f = await startServiceFixture({
    ...options,
    settings: { targetMusterUrl: 'https://muster.example.com/mcp', ...options.settings },
    workloads: (sandbox) => {
      sandbox.store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ORG_NS } });
      // The workload cluster trusts its own ServiceAccount token: the Secret carries it, as Cluster API's does an admin
      // credential.
      writeKubeconfigSecret(sandbox, 'alpha', alpha.kubeconfigYaml({ token: alpha.serviceAccountToken, name: 'alpha-admin' }));
      const base = loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }) });
      return openWorkloadClusters(base, { identity: options.identity ?? 'serviceAccount', organizations: [ORG], log: silentLogger() });
    },
  });
  return {
    f, alpha,
    async close() {
      await f.close();
      await alpha.close();
    },
  };
}

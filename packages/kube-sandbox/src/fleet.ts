/**
 * A management cluster with workload clusters, as Cluster API and Flux lay them out: the
 * management cluster holds namespace `org-<organization>` with one kubeconfig Secret per
 * workload cluster (`<cluster>-kubeconfig`, type `cluster.x-k8s.io/secret`, label
 * `cluster.x-k8s.io/cluster-name`, key `value`: an admin kubeconfig of that cluster) and the
 * organization's shared chart source; the sample platform adds one agent per workload
 * cluster, placed as `<cluster>-<agent>` HelmReleases installing through those Secrets.
 */
import { readMeta, type JsonObject } from './api/json.js';
import type { SandboxStore } from './ops/sandbox-store.js';
import type { SandboxLogger } from './server/api-server.js';
import { AGENT_MANAGER_RULES, CHART_V0_RANGE, DEFAULT_SEED, grantAgentManager, KAGENT_NAMESPACE, SEED_MANAGER,
  type SeedStep } from './seed.js';
import { bindPeople, installNow, seedPeopleRbac } from './seed-samples.js';

/** The organization of a fleet when none is named. */
export const DEFAULT_ORGANIZATION = 'acme';
/** Cluster API's label naming the cluster a Secret belongs to, and the type of the Secrets it writes. */
export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
export const CLUSTER_SECRET_TYPE = 'cluster.x-k8s.io/secret';
/** The label a placed release carries naming its workload cluster. */
export const PLACED_CLUSTER_LABEL = 'agent-platform.giantswarm.io/cluster';
/** The agent the sample platform places on every workload cluster. */
export const SAMPLE_FLEET_AGENT = 'cluster-helper';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const opts = { fieldManager: SEED_MANAGER };

/** The workload cluster names of the option: the names given, or N as `cluster-1`..`cluster-N`. Throws for bad ones. */
export function workloadClusterNames(option: readonly string[] | number | undefined): string[] {
  if (option === undefined) return [];
  if (typeof option === 'number') {
    if (!Number.isInteger(option) || option < 0 || option > 50) {
      throw new Error(`workloadClusters must be a whole number from 0 to 50, got ${option}`);
    }
    return Array.from({ length: option }, (_, i) => `cluster-${i + 1}`);
  }
  const seen = new Set<string>();
  for (const name of option) {
    // `<cluster>-kubeconfig` must stay a valid name, and the cluster a DNS-1123 label as Cluster API requires.
    if (!DNS1123_LABEL.test(name) || name.length > 52) {
      throw new Error(`workload cluster "${name}" must be a DNS-1123 label of at most 52 characters (lowercase ` +
        `letters, digits, '-')`);
    }
    if (seen.has(name)) throw new Error(`workload cluster "${name}" is named twice`);
    seen.add(name);
  }
  return [...option];
}

/** The organization, checked: `org-<organization>` must be a namespace name. */
export function checkOrganization(organization: string): string {
  if (!DNS1123_LABEL.test(organization) || organization.length > 59) {
    throw new Error(`organization "${organization}" must be a DNS-1123 label of at most 59 characters (namespace ` +
      `org-<organization>)`);
  }
  return organization;
}

/** The management-cluster namespace of an organization. */
export const organizationNamespace = (organization: string): string => `org-${organization}`;

/** The kubeconfig Secret Cluster API writes for a workload cluster. */
export function kubeconfigSecret(organization: string, cluster: string, kubeconfigYaml: string): JsonObject {
  return {
    apiVersion: 'v1', kind: 'Secret', type: CLUSTER_SECRET_TYPE,
    metadata: { name: `${cluster}-kubeconfig`, namespace: organizationNamespace(organization),
      labels: { [CLUSTER_NAME_LABEL]: cluster } },
    data: { value: Buffer.from(kubeconfigYaml, 'utf8').toString('base64') },
  };
}

/** A release of the agent chart placed on a workload cluster (the placement agent-manager writes). */
export function placedRelease(organization: string, cluster: string, agent: string, values: JsonObject): JsonObject {
  const namespace = organizationNamespace(organization);
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name: `${cluster}-${agent}`, namespace,
      labels: { 'app.kubernetes.io/managed-by': 'agent-manager', [PLACED_CLUSTER_LABEL]: cluster } },
    spec: {
      interval: '10m', releaseName: agent, targetNamespace: KAGENT_NAMESPACE, storageNamespace: KAGENT_NAMESPACE,
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace },
      kubeConfig: { secretRef: { name: `${cluster}-kubeconfig`, key: 'value' } },
      values: { agent: { name: agent, ...values }, modelConfig: { name: 'default-model-config' } },
    },
  };
}

/** One workload cluster as the management cluster learns of it. */
export interface WorkloadEntry {
  readonly name: string;
  /** Its admin kubeconfig, as Cluster API writes it. */
  readonly kubeconfigYaml: string;
}

/**
 * Seed the management side of a fleet: the organization's namespace, shared chart source
 * and kubeconfig Secrets; with `samples`, one installed agent per workload cluster.
 */
export function seedFleet(
  store: SandboxStore, organization: string, workloads: readonly WorkloadEntry[], samples: boolean,
): void {
  const namespace = organizationNamespace(organization);
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, opts);
  store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
    metadata: { name: 'agent', namespace, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: CHART_V0_RANGE } },
  }, opts);
  for (const workload of workloads) {
    store.create('secrets', kubeconfigSecret(organization, workload.name, workload.kubeconfigYaml), opts);
  }
  // agent-manager manages the organization's releases as those of a managed namespace, and reads its kubeconfig
  // Secrets.
  grantAgentManager(store, namespace, [...AGENT_MANAGER_RULES,
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }]);
  if (!samples) return;
  bindPeople(store, namespace);
  for (const workload of workloads) {
    const release = placedRelease(organization, workload.name, SAMPLE_FLEET_AGENT, {
      displayName: `Cluster Helper (${workload.name})`,
      description: `Answers questions about workload cluster ${workload.name}.`,
    });
    store.create('helmreleases', release, opts);
    installNow(store, String(readMeta(release).name), namespace);
  }
}

/** What a workload cluster is seeded with: the management's seed, but `samples` without the sample agents. */
export function workloadSeed(seed: boolean | 'samples' | readonly SeedStep[] | undefined): boolean
  | readonly SeedStep[] {
  if (seed === 'samples') return [...DEFAULT_SEED, seedPeopleRbac];
  return seed ?? true;
}

/** A logger whose every line names the workload cluster. */
export function clusterLog(log: SandboxLogger | undefined, cluster: string): SandboxLogger | undefined {
  if (!log) return undefined;
  return {
    debug: (o, m) => log.debug({ ...o, cluster }, m),
    ...(log.info ? { info: (o: object, m?: string) => log.info?.({ ...o, cluster }, m) } : {}),
    error: (o, m) => log.error({ ...o, cluster }, m),
  };
}

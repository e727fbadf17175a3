/**
 * Placing an agent on a workload cluster, as Cluster API and Flux place every other app:
 * the HelmRelease lives on the management cluster in `org-<organization>`, named
 * `<cluster>-<agent>`, and helm-controller installs it into the workload cluster through
 * the kubeconfig Secret Cluster API writes (`<cluster>-kubeconfig`, key `value`). Pure:
 * the texts are the ones callers already know, and nothing here reads the cluster.
 */
import { invalid } from '../errors.js';
import { goQuote } from '../go-quote.js';
import { asObject, isJsonObject } from '../json.js';

/** Where an agent runs when it does not run on the management cluster. */
export interface TargetCluster {
  readonly organization: string;
  readonly cluster: string;
}

/** The label that says which workload cluster a release installs into. */
export const CLUSTER_LABEL = 'agent-platform.giantswarm.io/cluster';

/** The Secret key Cluster API writes the kubeconfig under. */
export const KUBECONFIG_KEY = 'value';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** `org-` plus the organization must itself be a namespace name (a label of at most 63). */
const MAX_ORGANIZATION = 63 - 'org-'.length;

/**
 * The target named by a request, or undefined for the management cluster. Both or
 * neither: one without the other is a 400, since it would silently place the agent on
 * the wrong cluster.
 */
export function parseTarget(input: { organization?: string; cluster?: string }): TargetCluster | undefined {
  const organization = input.organization ?? '';
  const cluster = input.cluster ?? '';
  if (organization === '' && cluster === '') return undefined;
  if (organization === '' || cluster === '') {
    throw invalid(`a target cluster needs both organization and cluster (got organization ${goQuote(organization)}, ` +
      `cluster ${goQuote(cluster)})`);
  }
  parseOrganization(organization);
  if (!DNS1123_LABEL.test(cluster) || cluster.length > 63) {
    throw invalid(`cluster ${goQuote(cluster)} must be a DNS-1123 label`);
  }
  return { organization, cluster };
}

/** An organization whose `org-<organization>` is a namespace name, or the 400 that says it is not. */
export function parseOrganization(organization: string): string {
  if (!DNS1123_LABEL.test(organization) || organization.length > MAX_ORGANIZATION) {
    throw invalid(`organization ${goQuote(organization)} must be a DNS-1123 label`);
  }
  return organization;
}

/** The management-cluster namespace of an organization's releases and kubeconfig Secrets. */
export const organizationNamespace = (organization: string): string => `org-${organization}`;

/** The kubeconfig Secret Cluster API writes for a cluster. */
export const kubeconfigSecretName = (cluster: string): string => `${cluster}-kubeconfig`;

/** The release of `agent` on `target`: `<cluster>-<agent>`, refused past 63 characters. */
export function placedReleaseName(target: TargetCluster, agent: string): string {
  const name = `${target.cluster}-${agent}`;
  if (name.length > 63) {
    throw invalid(`the HelmRelease name ${goQuote(name)} (cluster-agent) is longer than 63 characters; pick a ` +
      `shorter agent name`);
  }
  return name;
}

/** The refusal when a cluster has no kubeconfig Secret (the cluster does not exist, or not yet). */
export function missingKubeconfigText(target: TargetCluster): string {
  const secret = `${organizationNamespace(target.organization)}/${kubeconfigSecretName(target.cluster)}`;
  return `cluster ${target.cluster} of organization ${target.organization} has no kubeconfig Secret ${secret} ` +
    `(Cluster API writes it when the cluster is created)`;
}

/** The refusal when the kubeconfig Secret holds no `value`. */
export function emptyKubeconfigText(target: TargetCluster): string {
  const secret = `${organizationNamespace(target.organization)}/${kubeconfigSecretName(target.cluster)}`;
  return `the kubeconfig Secret ${secret} has no key "${KUBECONFIG_KEY}"`;
}

/**
 * The refusal when an agent on a workload cluster would have no muster to reach: the original's words,
 * which clients compare, then where an administrator sets the URL (the flag and the chart value).
 */
export function missingTargetMusterText(target: TargetCluster): string {
  return `this installation has no muster URL for agents on workload clusters (agent-manager's targetMusterURL); an ` +
    `agent on cluster ${target.cluster} could not reach muster; an administrator sets it with --target-muster-url ` +
    `(AGENT_MANAGER_TARGET_MUSTER_URL), the agent-manager chart's value fleet.targetMusterURL`;
}

interface Release {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: unknown;
}

/**
 * The release composed for the management cluster, moved to the workload cluster: named
 * `<cluster>-<agent>` in `org-<organization>`, labelled with the cluster, rendering from
 * the organization's shared chart source, installing as `<agent>` into the agent's
 * namespace there (release storage too), through the cluster's kubeconfig Secret. A
 * ServiceAccount to impersonate would name one on the management cluster, so it is dropped.
 */
export function placeOnCluster<R extends Release>(
  release: R, target: TargetCluster, agent: string, agentNamespace: string,
): R {
  const namespace = organizationNamespace(target.organization);
  const { serviceAccountName: _dropped, chartRef, ...spec } = asObject(release.spec);
  return {
    ...release,
    metadata: {
      ...release.metadata,
      name: placedReleaseName(target, agent),
      namespace,
      labels: { ...release.metadata.labels, [CLUSTER_LABEL]: target.cluster },
    },
    spec: {
      ...spec,
      chartRef: { ...asObject(chartRef), namespace },
      releaseName: agent,
      targetNamespace: agentNamespace,
      storageNamespace: agentNamespace,
      kubeConfig: { secretRef: { name: kubeconfigSecretName(target.cluster), key: KUBECONFIG_KEY } },
    },
  };
}

/** True when the chart's values schema declares `muster.url` (a chart without it refuses the value). */
export function schemaDeclaresMusterUrl(schema: Record<string, unknown>): boolean {
  const properties = (o: unknown): Record<string, unknown> | undefined => {
    const p = asObject(o).properties;
    return isJsonObject(p) ? p : undefined;
  };
  return properties(properties(schema)?.muster)?.url !== undefined;
}

/**
 * The values of an agent on a workload cluster: it reaches muster at the installation's
 * URL for workload clusters, written as `muster.url` only where the chart declares it.
 */
export function withTargetMuster(
  values: Record<string, unknown>, url: string, schema: Record<string, unknown>,
): Record<string, unknown> {
  if (!schemaDeclaresMusterUrl(schema)) return values;
  const muster = asObject(values.muster);
  return { ...values, muster: { ...muster, url } };
}

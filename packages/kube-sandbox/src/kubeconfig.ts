/**
 * Kubeconfigs for the sandbox: the server URL, the generated CA (inline, base64) and a
 * bearer-token user. Written files are readable by their owner only: they hold a token.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

/** The user a kubeconfig authenticates as. */
export interface KubeconfigUser {
  token: string;
  /** Name of the user entry; default `sandbox-user`. */
  name?: string;
}

/** A kubeconfig document with one cluster, one user and one context named `sandbox`. */
export function buildKubeconfig(server: string, caPem: string, user: KubeconfigUser, namespace = 'default'): string {
  const userName = user.name ?? 'sandbox-user';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'sandbox', cluster: { server,
      'certificate-authority-data': Buffer.from(caPem, 'utf8').toString('base64') } }],
    users: [{ name: userName, user: { token: user.token } }],
    contexts: [{ name: 'sandbox', context: { cluster: 'sandbox', user: userName, namespace } }],
    'current-context': 'sandbox',
    preferences: {},
  });
}

/** Write a kubeconfig with mode 0600. */
export async function writeKubeconfigFile(path: string, yaml: string): Promise<void> {
  await writeFile(path, yaml, { mode: 0o600 });
}

/**
 * The admin kubeconfig Cluster API writes for a workload cluster: cluster `<cluster>`, user
 * `<cluster>-admin`, context `<cluster>-admin@<cluster>` (a token stands in for the client
 * certificate Cluster API issues).
 */
export function clusterAdminKubeconfig(server: string, caPem: string, cluster: string, token: string): string {
  const user = `${cluster}-admin`;
  const context = `${user}@${cluster}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server,
      'certificate-authority-data': Buffer.from(caPem, 'utf8').toString('base64') } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: context, context: { cluster, user } }],
    'current-context': context,
    preferences: {},
  });
}

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
    clusters: [{ name: 'sandbox', cluster: { server, 'certificate-authority-data': Buffer.from(caPem, 'utf8').toString('base64') } }],
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

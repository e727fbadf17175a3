/**
 * The cluster a HelmRelease installs into, as Flux's helm-controller chooses it: its own,
 * or with `spec.kubeConfig.secretRef` the cluster of the kubeconfig in that Secret. The
 * remote cluster is reached by the kubeconfig's server address on the loopback network of
 * this process and written through its in-process store, not over HTTPS: a reconcile stays
 * synchronous like every other simulated controller (no release half-applied when a request
 * fails midway), while what a client meets is still checked against that server's own state.
 */
import { parse } from 'yaml';
import { asObject, isObject, stringOr, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import { dial } from '../server/loopback-network.js';
import { metadata } from './work-loop.js';

/** Where the release goes, or why the controller cannot get there. */
export type ReleaseTarget =
  | { ok: true; store: SandboxStore; server?: string }
  /** No client could be built (helm-controller's `RESTClientError`); `secretMissing` when the Secret is not found. */
  | { ok: false; phase: 'client'; message: string; secretMissing: boolean }
  /** The client was built but its first request failed (a refused connection, TLS, 401). */
  | { ok: false; phase: 'request'; message: string };

const named = (list: unknown, name: string): JsonObject => {
  const entry = (Array.isArray(list) ? list : []).filter(isObject).find((e) => e.name === name);
  return entry ?? {};
};

/** Server, CA and token of the current context of a kubeconfig; throws with client-go's kind of message. */
function loadKubeconfig(text: string): { server: string; caPem: string; insecure: boolean; token: string } {
  const config = asObject(parse(text));
  const contextName = stringOr(config['current-context'], '');
  if (!contextName) throw new Error('invalid configuration: no configuration has been provided');
  const context = asObject(named(config.contexts, contextName).context);
  const cluster = asObject(named(config.clusters, stringOr(context.cluster, '')).cluster);
  const user = asObject(named(config.users, stringOr(context.user, '')).user);
  const server = stringOr(cluster.server, '');
  if (!server) throw new Error(`invalid configuration: context "${contextName}" has no cluster with a server`);
  const caData = stringOr(cluster['certificate-authority-data'], '');
  return { server, caPem: caData ? Buffer.from(caData, 'base64').toString('utf8') : '',
    insecure: cluster['insecure-skip-tls-verify'] === true, token: stringOr(user.token, '') };
}

/** The kubeconfig in a Secret, by helm-controller's key rules, or its error message. */
function kubeconfigText(secret: JsonObject, secretName: string, key: string): string | { error: string } {
  const data = asObject(secret.data);
  const pick = key || (data.value !== undefined ? 'value' : data['value.yaml'] !== undefined ? 'value.yaml' : '');
  const encoded = stringOr(data[pick], '');
  if (!encoded) {
    return { error: key ? `KubeConfig secret '${secretName}' does not contain a '${key}' key with data`
      : `KubeConfig secret '${secretName}' does not contain a 'value' or 'value.yaml' key with data` };
  }
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/**
 * The target cluster of `hr`, with helm-controller's failures and texts: a missing Secret or
 * key, or a kubeconfig that does not load, is a REST client error; a server that refuses the
 * connection, a CA that does not verify it, or a token it does not know fail the first
 * request. What the user may do there is not checked: Cluster API's kubeconfig is an admin's.
 * The key is `spec.kubeConfig.secretRef.key`, else `value`, else `value.yaml`. `probe` names the request
 * helm-controller makes first (the
 * release's records in its storage namespace), which is what a failing connection reports.
 */
export function releaseTarget(
  local: SandboxStore, hr: JsonObject, probe: { storageNamespace: string; releaseName: string },
): ReleaseTarget {
  const ref = asObject(asObject(asObject(hr.spec).kubeConfig).secretRef);
  if (!isObject(asObject(hr.spec).kubeConfig)) return { ok: true, store: local };
  const namespace = String(metadata(hr).namespace);
  const secretName = `${namespace}/${stringOr(ref.name, '')}`;
  const secret = local.find('secrets', namespace, stringOr(ref.name, ''));
  if (!secret) {
    return { ok: false, phase: 'client', secretMissing: true,
      message: `could not get KubeConfig secret '${secretName}': secrets "${stringOr(ref.name, '')}" not found` };
  }
  const text = kubeconfigText(secret, secretName, stringOr(ref.key, ''));
  if (typeof text !== 'string') return { ok: false, phase: 'client', secretMissing: false, message: text.error };
  let config: ReturnType<typeof loadKubeconfig>;
  let url: URL;
  try {
    config = loadKubeconfig(text);
    url = new URL(config.server);
  } catch (err) {
    // loadKubeconfig and new URL throw Errors (a YAML, shape or URL error).
    const why = (err as Error).message;
    return { ok: false, phase: 'client', secretMissing: false,
      message: `failed to load KubeConfig from secret '${secretName}': ${why}` };
  }
  const address = url.port ? url.host : `${url.host}:443`;
  const get = `Get "${config.server.replace(/\/+$/, '')}/api/v1/namespaces/${probe.storageNamespace}` +
    `/secrets?labelSelector=name%3D${probe.releaseName}%2Cowner%3Dhelm"`;
  const server = dial(address);
  if (!server) {
    return { ok: false, phase: 'request', message: `${get}: dial tcp ${address}: connect: connection refused` };
  }
  if (!config.insecure && config.caPem.trim() !== server.caPem.trim()) {
    return { ok: false, phase: 'request',
      message: `${get}: tls: failed to verify certificate: x509: certificate signed by unknown authority` };
  }
  if (!config.token || !server.authenticate(config.token)) {
    return { ok: false, phase: 'request', message: 'Unauthorized' };
  }
  return { ok: true, store: server.store, server: config.server };
}

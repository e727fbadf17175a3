/**
 * Helm's release storage as the simulated helm-controller keeps it in a workload cluster: one Secret
 * `sh.helm.release.v1.<release>.v<version>` of type `helm.sh/release.v1` per release version, labelled
 * `name`, `owner: helm`, `status`, `version` and `modifiedAt`, holding the release as Helm's Secret
 * driver encodes it (gzipped JSON, base64, then base64 again as every Secret value). A new version
 * supersedes the deployed one, history beyond `maxHistory` goes, and an uninstall deletes them all.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import { asObject, isObject, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import { CHART_APP_VERSION, CHART_NAME } from './agent-chart.js';
import { labelsOf, metadata } from './work-loop.js';
import { MANAGER } from './helm-apply.js';

/** One release version as the controller recorded it. */
export interface StoredRelease {
  readonly name: string;
  /** The release's namespace (the target namespace). */
  readonly namespace: string;
  readonly storageNamespace: string;
  readonly version: number;
  readonly status: 'deployed' | 'failed';
  readonly action: 'install' | 'upgrade';
  readonly chartVersion: string;
  readonly values: JsonObject;
  /** The rendered objects (the Agent, and on 2.x its RemoteMCPServer), for the release's manifest. */
  readonly rendered: readonly JsonObject[];
  readonly maxHistory: number;
}

const opts = { fieldManager: MANAGER };

function encode(release: JsonObject): string {
  return Buffer.from(gzipSync(JSON.stringify(release)).toString('base64')).toString('base64');
}

function decode(data: string): JsonObject {
  // The release Secrets hold what encode wrote: a release object.
  return asObject(JSON.parse(gunzipSync(Buffer.from(Buffer.from(data, 'base64').toString('utf8'), 'base64'))
    .toString('utf8')));
}

/** The release's Secrets in its storage namespace, oldest version first. */
export function releaseSecrets(store: SandboxStore, storageNamespace: string, name: string): JsonObject[] {
  const { items } = store.list('secrets', { namespace: storageNamespace, labelSelector: `owner=helm,name=${name}` });
  return items.sort((a, b) => Number(labelsOf(a).version) - Number(labelsOf(b).version));
}

/** Record a new release version; the deployed one before it becomes superseded. */
export function storeRelease(store: SandboxStore, r: StoredRelease): void {
  const now = new Date();
  const existing = releaseSecrets(store, r.storageNamespace, r.name);
  for (const secret of existing.filter((s) => labelsOf(s).status === 'deployed')) {
    const data = isObject(secret.data) ? secret.data : {};
    const release = decode(String(data.release));
    release.info = { ...(isObject(release.info) ? release.info : {}), status: 'superseded' };
    store.update('secrets', {
      ...structuredClone(secret),
      metadata: { ...structuredClone(metadata(secret)),
        labels: { ...labelsOf(secret), status: 'superseded', modifiedAt: String(Math.floor(now.getTime() / 1000)) } },
      data: { release: encode(release) },
    }, opts);
  }
  const manifest = r.rendered
    .map((o) => `---\n# Source: ${CHART_NAME}/templates/${String(o.kind).toLowerCase()}.yaml\n${stringify(o)}`)
    .join('');
  const release: JsonObject = {
    name: r.name, namespace: r.namespace, version: r.version, config: r.values, manifest,
    info: { first_deployed: now.toISOString(), last_deployed: now.toISOString(), deleted: '', status: r.status,
      description: r.status === 'failed' ? `${r.action === 'install' ? 'Install' : 'Upgrade'} failed`
        : `${r.action === 'install' ? 'Install' : 'Upgrade'} complete` },
    chart: { metadata: { apiVersion: 'v2', name: CHART_NAME, version: r.chartVersion, appVersion: CHART_APP_VERSION } },
  };
  store.create('secrets', {
    apiVersion: 'v1', kind: 'Secret', type: 'helm.sh/release.v1',
    metadata: {
      name: `sh.helm.release.v1.${r.name}.v${r.version}`, namespace: r.storageNamespace,
      labels: { name: r.name, owner: 'helm', status: r.status, version: String(r.version),
        modifiedAt: String(Math.floor(now.getTime() / 1000)) },
    },
    data: { release: encode(release) },
  }, opts);
  const all = [...existing, undefined];
  if (r.maxHistory > 0 && all.length > r.maxHistory) {
    for (const old of existing.slice(0, all.length - r.maxHistory)) {
      store.delete('secrets', r.storageNamespace, String(metadata(old).name), opts);
    }
  }
}

/** Delete every stored version of a release (`helm uninstall` without `--keep-history`). */
export function deleteRelease(store: SandboxStore, storageNamespace: string, name: string): void {
  for (const secret of releaseSecrets(store, storageNamespace, name)) {
    store.delete('secrets', storageNamespace, String(metadata(secret).name), opts);
  }
}

/**
 * A GitOps world for commit-mode tests: a real bare repository `acme/fleet` with three
 * Flux paths, the GitHub API double serving it, and the sandbox objects that make agents
 * GitOps-owned (GitRepository flux-system/fleet, Kustomizations prod (prune), staging (no
 * prune) and dup, and the releases they applied, labelled as kustomize-controller labels
 * them). The git manifests are in the form apply mode composes, so a kustomize build of
 * a path can be compared with what apply mode would write.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Sandbox } from '@agent-manager/kube-sandbox';
import { BareRepo } from './bare-repo.js';
import { startGitGitHubDouble, type GitGitHubDouble } from './github-git-double.js';

export const WRITER_TOKEN = 'ghp_writer';
export const READER_TOKEN = 'ghp_reader';
export const APP_ID = '4242';

export const SRE_VALUES = {
  agent: { name: 'sre', displayName: 'SRE' },
  modelConfig: { name: 'default-model-config' },
  toolset: ['preset:kubernetes-read'],
};

export const PROD_AGENTS = `# Agents of the prod cluster; reviewed by the platform team.
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  labels:
    app.kubernetes.io/managed-by: agent-manager
  name: agent
  namespace: kagent
spec:
  interval: 30m
  ref:
    semver: 0.x
  url: oci://gsoci.azurecr.io/charts/giantswarm/agent
---
# The on-call agent.
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  labels:
    app.kubernetes.io/managed-by: agent-manager
  name: sre
  namespace: kagent
spec:
  interval: 10m # Flux looks this often
  chartRef: {kind: OCIRepository, name: agent, namespace: kagent}
  values:
    # who it is
    agent:
      name: sre
      displayName: 'SRE'
    modelConfig:
      name: default-model-config
    toolset:
      - preset:kubernetes-read # read-only to start with
`;

const kustomization = (resources: string[]) =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources.map((r) => `  - ${r}`).join('\n')}\n`;

const release = (name: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  labels:
    app.kubernetes.io/managed-by: agent-manager
  name: ${name}
  namespace: kagent
spec:
  chartRef: {kind: OCIRepository, name: agent, namespace: kagent}
  interval: 10m
  values:
    agent: {name: ${name}}
    modelConfig: {name: default-model-config}
    toolset: [preset:kubernetes-read]
`;

export const SEED_FILES: Record<string, string> = {
  'README.md': '# fleet\n',
  'clusters/prod/kustomization.yaml': `# prod cluster\n${kustomization(['apps.yaml', 'agents.yaml'])}`,
  'clusters/prod/apps.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes, namespace: kagent}\ndata: {owner: platform}\n',
  'clusters/prod/agents.yaml': PROD_AGENTS,
  'clusters/staging/kustomization.yaml': kustomization(['ops.yaml']),
  'clusters/staging/ops.yaml': release('ops'),
  'clusters/dup/kustomization.yaml': kustomization(['a.yaml']),
  'clusters/dup/a.yaml': release('twin'),
  'clusters/dup/old/b.yaml': release('twin'),
  'clusters/new/kustomization.yaml': kustomization(['base.yaml']),
  'clusters/new/base.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base, namespace: kagent}\n',
};

export interface GitOpsWorld {
  repo: BareRepo;
  github: GitGitHubDouble;
  appPrivateKey: string;
  close(): Promise<void>;
}

let keyPair: { publicKey: string; privateKey: string } | undefined;
/** The app's RSA key pair: made once per process, since a 2048-bit key takes a noticeable while. */
function appKeys(): { publicKey: string; privateKey: string } {
  keyPair ??= generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } });
  return keyPair;
}

/**
 * The repository and the double; `appInstalledOn` lists the repositories the app is
 * installed on, `basePath` serves the API under a prefix as GitHub Enterprise does (`/api/v3`).
 */
export async function startGitOpsWorld(
  options: { appInstalledOn?: string[]; basePath?: string } = {},
): Promise<GitOpsWorld> {
  const repo = await BareRepo.create();
  await repo.commitFiles('main', SEED_FILES, 'seed the fleet');
  const other = await BareRepo.create();
  await other.commitFiles('main', { 'README.md': 'x\n' });
  const keys = appKeys();
  const github = await startGitGitHubDouble({
    repositories: { 'acme/fleet': repo, 'acme/other': other },
    tokens: {
      [WRITER_TOKEN]: { login: 'alice', repositories: { 'acme/fleet': 'write', 'acme/other': 'write' } },
      [READER_TOKEN]: { login: 'bob', repositories: { 'acme/fleet': 'read' } },
    },
    app: {
      id: Number(APP_ID), slug: 'agent-manager', publicKeyPem: keys.publicKey,
      installations: Object.fromEntries((options.appInstalledOn ?? ['acme/fleet']).map((r, i) => [r, 100 + i])),
    },
    ...(options.basePath ? { basePath: options.basePath } : {}),
  });
  return {
    repo, github, appPrivateKey: keys.privateKey,
    async close() {
      await github.close();
      await repo.remove();
      await other.remove();
    },
  };
}

const opts = { fieldManager: 'kustomize-controller' };

/** The Flux objects and the GitOps-owned releases, as Flux would have applied them. */
export function seedGitOpsCluster(sandbox: Sandbox): void {
  const { store } = sandbox;
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-system' } } as never, opts);
  store.create('gitrepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name: 'fleet', namespace: 'flux-system' },
    spec: { interval: '1m', url: 'https://github.com/acme/fleet.git', ref: { branch: 'main' } },
  } as never, opts);
  for (const [name, prune] of [['prod', true], ['staging', false], ['dup', true]] as const) {
    store.create('kustomizations', {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name, namespace: 'flux-system' },
      spec: { interval: '10m', path: `./clusters/${name}`, prune, sourceRef: { kind: 'GitRepository', name: 'fleet' } },
    } as never, opts);
  }
  const owned = (name: string, ks: string, values: Record<string, unknown>) => store.create('helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: {
      name, namespace: 'kagent',
      labels: { 'app.kubernetes.io/managed-by': 'agent-manager', 'kustomize.toolkit.fluxcd.io/name': ks, 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
    },
    spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' }, values },
  } as never, opts);
  owned('sre', 'prod', SRE_VALUES);
  owned('ops', 'staging', { agent: { name: 'ops' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:kubernetes-read'] });
  owned('twin', 'dup', { agent: { name: 'twin' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:kubernetes-read'] });
}

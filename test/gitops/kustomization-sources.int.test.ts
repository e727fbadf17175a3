/**
 * How commit mode follows a GitOps-owned release to where it is defined, for the shapes a
 * Flux installation takes: a GitRepository without a ref (Flux's default branch master), an
 * ssh:// URL, a GitRepository pinned to a tag (no branch to propose to unless the caller
 * names one), a Kustomization with targetNamespace (documents without a namespace), and the
 * 400s when the chain cannot be followed: no such Kustomization, a source that is not a
 * GitRepository, a URL that names no GitHub repository.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
const opts = { fieldManager: 'kustomize-controller' };

const BOT = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: bot # no namespace: the Kustomization's targetNamespace sets it
spec:
  chartRef: {kind: OCIRepository, name: agent, namespace: kagent}
  interval: 10m
  values:
    agent: {name: bot}
    modelConfig: {name: default-model-config}
    toolset: [preset:none]
`;

function gitRepository(name: string, spec: Record<string, unknown>) {
  w.f.sandbox.store.create('gitrepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name, namespace: 'flux-system' }, spec: { interval: '1m', ...spec },
  } as never, opts);
}

function kustomization(name: string, spec: Record<string, unknown>) {
  w.f.sandbox.store.create('kustomizations', {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name, namespace: 'flux-system' },
    spec: { interval: '10m', prune: true, ...spec },
  } as never, opts);
}

/** A release as kustomize-controller applied it for Kustomization `ks`. */
function owned(name: string, ks: string) {
  w.f.sandbox.store.create('helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: {
      name, namespace: 'kagent',
      labels: { 'app.kubernetes.io/managed-by': 'agent-manager', 'kustomize.toolkit.fluxcd.io/name': ks, 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
    },
    spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' }, values: { agent: { name }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] } },
  } as never, opts);
}

beforeAll(async () => {
  w = await startCommitWorld('app');
  // bot-ssh and bot-tag are defined beside bot: a GitOps-owned release is changed only where git defines it.
  const twin = (name: string) => BOT.replace(/\bbot\b/g, name);
  await w.world.repo.commitFiles('main', {
    'clusters/tns/kustomization.yaml': 'resources:\n  - bot.yaml\n', 'clusters/tns/bot.yaml': `${BOT}---\n${twin('bot-ssh')}---\n${twin('bot-tag')}`,
  }, 'a path with targetNamespace');
  await w.world.repo.git(['update-ref', 'refs/heads/master', 'main']);
  gitRepository('fleet-default', { url: 'https://github.com/acme/fleet' });
  gitRepository('fleet-ssh', { url: 'ssh://git@github.com/acme/fleet.git', ref: { branch: 'main' } });
  gitRepository('fleet-tag', { url: 'https://github.com/acme/fleet', ref: { tag: 'v1.2.0', branch: 'main' } });
  gitRepository('gitlab', { url: 'https://gitlab.example.com/group/sub/fleet.git', ref: { branch: 'main' } });
  const ref = (name: string) => ({ kind: 'GitRepository', name });
  kustomization('tns-default', { path: './clusters/tns', targetNamespace: 'kagent', sourceRef: ref('fleet-default') });
  kustomization('tns-ssh', { path: './clusters/tns', targetNamespace: 'kagent', sourceRef: ref('fleet-ssh') });
  kustomization('tns-tag', { path: './clusters/tns', targetNamespace: 'kagent', sourceRef: ref('fleet-tag') });
  kustomization('from-oci', { path: './', sourceRef: { kind: 'OCIRepository', name: 'manifests' } });
  kustomization('from-gitlab', { path: './', sourceRef: ref('gitlab') });
  owned('bot', 'tns-default');
  owned('bot-ssh', 'tns-ssh');
  owned('bot-tag', 'tns-tag');
  owned('lost', 'gone');
  owned('oci', 'from-oci');
  owned('lab', 'from-gitlab');
});
afterAll(() => w.close());

const refused = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (e: Error & { status?: number }) => ({ status: e.status, message: e.message }));

describe('commit mode follows the Kustomization and its GitRepository', () => {
  it('proposes to Flux\'s default branch master when the GitRepository names no ref, editing a document without a namespace in place', async () => {
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'bot', displayName: 'Bot', mode: 'commit' });
    expect(result.commit).toMatchObject({ base: 'master', directory: 'clusters/tns', kustomization: 'flux-system/tns-default' });
    expect(result.commit!.files).toEqual([{ path: 'clusters/tns/bot.yaml', action: 'update' }]);
    const text = await w.world.repo.show(result.commit!.branch, 'clusters/tns/bot.yaml');
    expect(text).toContain('  name: bot # no namespace: the Kustomization\'s targetNamespace sets it\n');
    expect(text).toContain('displayName: Bot');
    expect(w.world.github.pulls('acme/fleet').find((p) => p.head === result.commit!.branch)?.base).toBe('master');
  });

  it('reads the repository from an ssh:// URL', async () => {
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'bot-ssh', description: 'x', mode: 'commit', dryRun: true });
    expect(result.commit).toMatchObject({ repository: 'acme/fleet', base: 'main' });
  });

  it('asks for a branch when the GitRepository follows a tag, and proposes to the one named', async () => {
    expect(await refused(w.f.service.updateAgent(w.f.ctx(), { name: 'bot-tag', description: 'x', mode: 'commit' }))).toEqual({
      status: 400,
      message: 'invalid request: Flux Kustomization flux-system/tns-tag applies from GitRepository flux-system/fleet-tag, which follows tag v1.2.0 rather than a branch, '
        + 'so a merged change is applied only once that reference moves; pass branch to name the branch to propose the change to',
    });
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'bot-tag', description: 'x', mode: 'commit', branch: 'main', dryRun: true });
    expect(result.commit).toMatchObject({ base: 'main', kustomization: 'flux-system/tns-tag' });
  });

  it('answers 400 saying which link of the chain cannot be followed, before GitHub is asked', async () => {
    const calls = w.world.github.calls.length;
    expect(await refused(w.f.service.updateAgent(w.f.ctx(), { name: 'lost', description: 'x', mode: 'commit' }))).toEqual({
      status: 400, message: 'invalid request: the release is applied by Flux Kustomization flux-system/gone, which cannot be read (it does not exist, or agent-manager may not get kustomizations there)',
    });
    expect((await refused(w.f.service.updateAgent(w.f.ctx(), { name: 'oci', description: 'x', mode: 'commit' }))).message)
      .toBe('invalid request: Flux Kustomization flux-system/from-oci applies from OCIRepository manifests, not a GitRepository; commit mode writes only to git');
    expect((await refused(w.f.service.updateAgent(w.f.ctx(), { name: 'lab', description: 'x', mode: 'commit' }))).message)
      .toBe('invalid request: GitRepository flux-system/gitlab has URL "https://gitlab.example.com/group/sub/fleet.git", which names no GitHub repository');
    expect(w.world.github.calls.length).toBe(calls);
  });
});

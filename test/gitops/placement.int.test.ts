/**
 * Where commit mode puts a new agent, against the GitHub double over a real bare
 * repository: when the namespace's chart source (its OCIRepository) was applied by a Flux
 * Kustomization, the agent goes where that Kustomization reads, and the result names it;
 * a request that names another place wins. A delete that keeps the chart source says which
 * releases still render from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { byKind, kubectlPresent, kustomize, startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
const opts = { fieldManager: 'kustomize-controller' };
const scout = { modelConfig: 'default-model-config', toolset: ['preset:kubernetes-read'], namespace: 'tenant' };
const actions = (files: Array<{ path: string; action: string }>) => files.map((f) => `${f.action} ${f.path}`);

beforeAll(async () => {
  w = await startCommitWorld('app');
  // tenant's chart source, applied by the staging Kustomization (clusters/staging of acme/fleet, no prune).
  w.f.sandbox.store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
    metadata: { name: 'agent', namespace: 'tenant', labels: { 'kustomize.toolkit.fluxcd.io/name': 'staging', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' } },
    spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: '0.x' } },
  } as never, opts);
  w.f.sandbox.store.create('modelconfigs', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig', metadata: { name: 'default-model-config', namespace: 'tenant' },
    spec: { provider: 'Anthropic', model: 'claude-sonnet-4-6' },
  } as never, opts);
});
afterAll(() => w.close());

describe.skipIf(!kubectlPresent)('where a new agent goes', () => {
  it('follows the Kustomization that applies the namespace\'s chart source, with no repository, branch or path in the request', async () => {
    const result = await w.f.service.createAgent(w.f.ctx(), { ...scout, name: 'scout', mode: 'commit' });
    const commit = result.commit!;
    expect(commit).toMatchObject({ repository: 'acme/fleet', base: 'main', directory: 'clusters/staging', kustomization: 'flux-system/staging' });
    // Once merged, Kustomization staging applies it: GitOps-managed, with the toolset an applied create reports.
    expect(result.agent).toMatchObject({ name: 'scout', managed: 'gitops', toolset: scout.toolset });
    expect(result.agent).not.toHaveProperty('version');
    expect(actions(commit.files)).toEqual([
      'add clusters/staging/agent-manager/agent.yaml', 'add clusters/staging/agent-manager/kustomization.yaml',
      'add clusters/staging/agent-manager/scout.yaml', 'update clusters/staging/kustomization.yaml',
    ]);
    const rendered = await kustomize(w.world, commit.branch, 'clusters/staging');
    expect(byKind(rendered, 'HelmRelease', 'scout')).toEqual(parse(result.manifests.helmRelease));
    expect(byKind(rendered, 'HelmRelease', 'ops')).toBeDefined();
    const pull = w.world.github.pulls('acme/fleet').find((p) => p.head === commit.branch)!;
    expect(pull.body).toContain('Applied by Flux Kustomization `flux-system/staging` (prune: false).');
  });

  it('goes where the request says when it names another path', async () => {
    const result = await w.f.service.createAgent(w.f.ctx(), { ...scout, name: 'elsewhere', mode: 'commit', path: 'clusters/new', dryRun: true });
    expect(result.commit).toMatchObject({ repository: 'acme/fleet', base: 'main', directory: 'clusters/new' });
    expect(result.commit!.kustomization).toBeUndefined();
  });

  it('says on a delete which releases keep the chart source', async () => {
    const result = await w.f.service.deleteAgent(w.f.ctx(), { name: 'sre', mode: 'commit', dryRun: true });
    expect(result.ociRepositoryDeleted).toBe(false);
    expect(result.ociRepositoryKept).toBe('still referenced by 2 other HelmRelease(s): ops, twin');
  });
});

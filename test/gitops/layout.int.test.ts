/**
 * The agent-manager layout (`<path>/agent-manager/`) against real git, past a merge: a
 * release agent-manager applied but git does not define is laid out when it is changed in
 * commit mode; a second agent joins the first and shares its chart source; and the delete
 * of the only one merged, once Flux applied it, takes the source, the layout directory and the
 * parent kustomization's entry with it, leaving the path as it was before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEED_FILES } from '../support/github/commit-world.js';
import { fluxApplies, merge } from './flux-apply.js';
import { byKind, kubectlPresent, kustomize, startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
const base = { modelConfig: 'default-model-config', toolset: ['preset:none'] };
const where = { mode: 'commit' as const, repository: 'acme/fleet', path: 'clusters/new' };
const actions = (files: Array<{ path: string; action: string }>) => files.map((f) => `${f.action} ${f.path}`);

beforeAll(async () => {
  w = await startCommitWorld('app');
  // The Flux Kustomization that applies clusters/new (pruning), as kustomize-controller's owner would have created it.
  w.f.sandbox.store.create('kustomizations', {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'new', namespace: 'flux-system' },
    spec: { interval: '10m', path: './clusters/new', prune: true, sourceRef: { kind: 'GitRepository', name: 'fleet' } },
  } as never, { fieldManager: 'test' });
  // A ModelConfig in tenant, whose chart source the cluster does not have yet (nothing else renders from it).
  w.f.sandbox.store.create('modelconfigs', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig', metadata: { name: 'default-model-config', namespace: 'tenant' },
    spec: { provider: 'Anthropic', model: 'claude-sonnet-4-6' },
  } as never, { fieldManager: 'test' });
});
afterAll(() => w.close());

describe.skipIf(!kubectlPresent)('the agent-manager layout against real git', () => {
  it('lays out a release agent-manager applied but git does not define, rendering what the applied update would store', async () => {
    await w.f.service.createAgent(w.f.ctx(), { ...base, name: 'live-bot' });
    const update = { name: 'live-bot', displayName: 'Live bot' };
    const dry = await w.f.service.updateAgent(w.f.ctx(), { ...update, dryRun: true });
    const result = await w.f.service.updateAgent(w.f.ctx(), { ...update, ...where });
    const commit = result.commit!;
    expect(commit.kustomization).toBeUndefined();
    expect(actions(commit.files)).toEqual([
      'add clusters/new/agent-manager/agent.yaml', 'add clusters/new/agent-manager/kustomization.yaml',
      'add clusters/new/agent-manager/live-bot.yaml', 'update clusters/new/kustomization.yaml',
    ]);
    expect(await w.world.repo.git(['log', '-1', '--format=%s', commit.branch])).toBe('chore(agents): update agent live-bot in kagent\n');
    const rendered = await kustomize(w.world, commit.branch, 'clusters/new');
    expect(byKind(rendered, 'HelmRelease', 'live-bot')).toEqual(parse(dry.manifests.helmRelease));
    expect(byKind(rendered, 'OCIRepository', 'agent')).toEqual(parse(dry.manifests.ociRepository));
  });

  it('asks where to write when such a release is changed and nothing names a repository', async () => {
    const err = await w.f.service.updateAgent(w.f.ctx(), { name: 'live-bot', description: 'x', mode: 'commit' }).then(() => undefined, (e: Error) => e);
    expect(err?.message).toBe('invalid request: commit mode needs a GitOps repository: pass repository (owner/name), branch and path, or configure --gitops-repository');
  });

  it('puts a second agent beside a merged first one, sharing its source, and a delete of the only merged one restores the path', async () => {
    const first = await w.f.service.createAgent(w.f.ctx(), { ...base, name: 'scout', namespace: 'tenant', ...where });
    expect(actions(first.commit!.files)).toContain('add clusters/new/agent-manager/agent.yaml');
    await merge(w.world.repo, first.commit!.branch);

    const second = await w.f.service.createAgent(w.f.ctx(), { ...base, name: 'scribe', namespace: 'tenant', ...where });
    expect(actions(second.commit!.files)).toEqual([
      'update clusters/new/agent-manager/kustomization.yaml', 'add clusters/new/agent-manager/scribe.yaml', 'unchanged clusters/new/kustomization.yaml',
    ]);
    const both = await kustomize(w.world, second.commit!.branch, 'clusters/new');
    expect(both.filter((o) => o.kind !== 'ConfigMap').map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort())
      .toEqual(['HelmRelease tenant/scout', 'HelmRelease tenant/scribe', 'OCIRepository tenant/agent']);

    // Flux applies the merged path: tenant/scout and its source are now GitOps-owned objects of Kustomization new.
    const merged = await kustomize(w.world, 'main', 'clusters/new');
    await fluxApplies(w.f.sandbox, merged.filter((o) => o.kind !== 'ConfigMap'), 'new');
    expect((await w.f.service.getAgent(w.f.ctx(), { name: 'scout', namespace: 'tenant' })).managed).toBe('gitops');

    const removed = await w.f.service.deleteAgent(w.f.ctx(), { name: 'scout', namespace: 'tenant', mode: 'commit' });
    const commit = removed.commit!;
    expect(commit.kustomization).toBe('flux-system/new');
    expect(actions(commit.files)).toEqual([
      'remove clusters/new/agent-manager/agent.yaml', 'remove clusters/new/agent-manager/kustomization.yaml',
      'remove clusters/new/agent-manager/scout.yaml', 'update clusters/new/kustomization.yaml',
    ]);
    expect(commit.liveSteps).toBeUndefined(); // Kustomization new prunes
    expect(await w.world.repo.show(commit.branch, 'clusters/new/kustomization.yaml')).toBe(SEED_FILES['clusters/new/kustomization.yaml']);
    const rendered = await kustomize(w.world, commit.branch, 'clusters/new');
    expect(rendered.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/base']);
    // Nothing left the cluster: the pull request has not been merged.
    expect(removed).toMatchObject({ helmReleaseDeleted: false, ociRepositoryDeleted: false });
    expect(w.f.sandbox.store.get('helmreleases', 'tenant', 'scout')).toBeDefined();
  });
});

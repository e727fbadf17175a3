/**
 * migrate's expand on a GitOps-owned release, against the GitHub double over a real bare repository: the release is
 * not written, a pull request carries the values and chartRef change together with the new source's file, and the
 * report names the pull request and asks the operator to merge it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
beforeAll(async () => {
  w = await startCommitWorld('app');
});
afterAll(() => w.close());

describe('migrate on GitOps-owned releases', () => {
  it('proposes the move as a pull request instead of writing the release', async () => {
    const before = w.f.sandbox.store.get('helmreleases', 'kagent', 'sre');
    const result = await w.f.service.migrate(w.f.ctx(), {
      namespaces: ['kagent'], to: '2.x', phases: ['expand'], dryRun: false, timeoutMs: 1000,
      reportConfigMap: 'agent-manager-migrate-report', mapping: {},
    });
    const sre = result.reports[0]!.agents.find((a) => a.name === 'sre')!;
    expect(sre).toMatchObject({ action: 'propose', pullRequest: expect.stringMatching(/\/pull\/\d+$/) });
    expect(result.actions).toContainEqual(expect.stringMatching(/^kagent: merge the pull request of sre/));
    expect(w.f.sandbox.store.get('helmreleases', 'kagent', 'sre')).toEqual(before);
    const pull = w.world.github.pulls('acme/fleet').find((p) => sre.pullRequest!.endsWith(`/pull/${p.number}`))!;
    const text = (await w.world.repo.show(pull.head, 'clusters/prod/agents.yaml'))!;
    const release = parseAllDocuments(text).map((d) => d.toJS() as Record<string, any>)
      .find((o) => o.kind === 'HelmRelease' && o.metadata.name === 'sre')!;
    expect(release.spec.chartRef.name).toBe('agent-2');
    expect(release.spec.values.agent).toMatchObject({ name: 'sre', harness: 'kagent' });
    expect(await w.world.repo.show(pull.head, 'clusters/prod/agent-2.yaml')).toContain('semver: 2.x');
  });
});

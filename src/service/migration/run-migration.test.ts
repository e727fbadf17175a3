import { beforeEach, describe, expect, it } from 'vitest';
import { ManagedNamespaces } from '../namespaces.js';
import { DEFAULT_API_VERSIONS } from '../resources.js';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { CHART_URL } from '../../../test/support/service/fixture-settings.js';
import { MIGRATION_RUNS_FROM_CLI } from './plan-migration.js';
import type { MigrateRequest } from './run-migration.js';

const COMMIT = 'a'.repeat(40);
const OCI = `r.example.io/skills/runbooks@sha256:${'b'.repeat(64)}`;
let f: FakeServiceFixture;

function seedSource(namespace: string): void {
  f.kube.store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
    metadata: { name: 'agent', namespace, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: { interval: '30m', url: CHART_URL, ref: { semver: '0.x' }, secretRef: { name: 'pull' } },
    status: { artifact: { revision: `0.6.1@sha256:${'c'.repeat(64)}` } },
  });
}

async function seed0x(namespace: string, name: string, extra: Record<string, unknown> = {}): Promise<void> {
  await f.service.createAgent(f.ctx(), {
    name, namespace, modelConfig: 'default-model-config', toolset: ['preset:read-only'], runtime: 'go', ...extra,
  });
  // What kagent rendered for it on 0.x: the Agent and its Deployment.
  const agent = f.kube.store.create('agents', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name, namespace,
      labels: { 'helm.toolkit.fluxcd.io/name': name, 'helm.toolkit.fluxcd.io/namespace': namespace } }, spec: {},
  });
  f.kube.store.create('deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace,
      ownerReferences: [{ apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', name, uid: agent.metadata.uid }] },
    spec: {},
  });
}

const request = (overrides: Partial<MigrateRequest> = {}): MigrateRequest => ({
  namespaces: ['team'], to: '2.x', phases: ['expand', 'contract'], dryRun: false, timeoutMs: 1000,
  reportConfigMap: 'agent-manager-migrate-report', mapping: {}, ...overrides,
});
const release = (name: string, namespace = 'team') => f.kube.store.find('helmreleases', namespace, name) as
  { spec: { values: Record<string, unknown>; chartRef: { name: string } } } | undefined;

beforeEach(async () => {
  f = startFakeServiceFixture({ settings: { namespaces: new ManagedNamespaces('kagent', ['team', 'mixed']) } });
  for (const ns of ['team', 'mixed']) {
    f.kube.store.create('modelconfigs', { apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig',
      metadata: { name: 'default-model-config', namespace: ns }, spec: {}, status: { conditions: [
        { type: 'Accepted', status: 'True' }] } });
    seedSource(ns);
  }
  await seed0x('team', 'git-skill', { skills: { gitRefs: [{ url: 'https://github.com/o/skills', path: 'k8s',
    ref: COMMIT }] } });
  await seed0x('team', 'oci-skill', { skills: { refs: [OCI] } });
});

describe('migrate to chart 2.x', () => {
  it('plans without writing: per agent the diff and notes, and the portal\'s plan is the same', async () => {
    const before = f.kube.counters.count({ verb: 'update' }) + f.kube.counters.count({ verb: 'create' });
    const run = await f.service.migrate(f.ctx(), request({ dryRun: true }));
    expect(f.kube.counters.count({ verb: 'update' }) + f.kube.counters.count({ verb: 'create' })).toBe(before);
    expect(run.reports[0]!.agents.map((a) => [a.name, a.action])).toEqual([['git-skill', 'move'], ['oci-skill', 'move']]);
    expect(run.reports[0]!.agents[0]!.diff).toMatch(/^\+ {2}harness: kagent$/m);
    const plan = await f.service.planMigration(f.ctx(), { namespace: 'team', dryRun: true });
    expect(plan).toMatchObject({ to: '2.x', writable: true, targetSource: 'agent-2' });
    expect(plan.agents.map((a) => a.diff)).toEqual(run.reports[0]!.agents.map((a) => a.diff));
  });

  it('answers a plan request without dryRun with a 400 saying the migration runs from the CLI', async () => {
    await expect(f.service.planMigration(f.ctx(), { namespace: 'team' })).rejects.toThrow(MIGRATION_RUNS_FROM_CLI);
  });

  it('moves each release in one write of values and chartRef, records the state before, deletes the old Agent',
    async () => {
      const run = await f.service.migrate(f.ctx(), request());
      expect(run.actions).toEqual([]);
      expect(release('git-skill')!.spec.chartRef.name).toBe('agent-2');
      expect(release('git-skill')!.spec.values).toMatchObject({
        agent: { name: 'git-skill', harness: 'kagent' }, toolset: ['preset:read-only'],
        skills: [{ name: 'k8s', git: { url: 'https://github.com/o/skills', commit: COMMIT }, path: 'k8s' }],
      });
      expect(release('oci-skill')!.spec.values.skills).toEqual([{ name: 'runbooks', oci: OCI }]);
      expect(f.kube.store.find('ocirepositories', 'team', 'agent-2')).toMatchObject({
        spec: { url: CHART_URL, ref: { semver: '2.x' }, secretRef: { name: 'pull' } } });
      expect(f.kube.store.find('ocirepositories', 'team', 'agent')).toMatchObject({ spec: { ref: { semver: '2.x' } } });
      expect(f.kube.store.find('agents', 'team', 'git-skill')).toBeUndefined();
      expect(f.kube.store.find('deployments', 'team', 'git-skill')).toBeUndefined();
      const agent = run.reports[0]!.agents[0]!;
      expect(agent).toMatchObject({ written: true, revisionBefore: 1,
        deleted: ['kagent.dev/v1alpha2 Agent git-skill', 'apps/v1 Deployment git-skill'] });
      const report = f.kube.peek({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, 'team',
        'agent-manager-migrate-report') as unknown as { data: Record<string, string> };
      expect(Object.keys(report.data).sort()).toEqual(['git-skill.diff', 'oci-skill.diff', 'phase', 'report.yaml',
        'summary']);
      const revisions = await f.service.listAgentRevisions(f.ctx(), { namespace: 'team', name: 'git-skill' });
      expect(revisions.revisions.map((r) => r.revision)).toEqual([2, 1]);
    });

  it('answers a rollback to the revision before the move with a 409 naming the reverse run', async () => {
    await f.service.migrate(f.ctx(), request());
    const refused = f.service.rollbackAgent(f.ctx(), { namespace: 'team', name: 'git-skill', revision: 1 });
    await expect(refused).rejects.toMatchObject({ status: 409 });
    await expect(refused).rejects.toThrow(/chart line moved: .*agent-manager migrate --phase expand --agent-chart-semver 0\.x --namespaces team/);
  });

  it('leaves a namespace with one unmappable agent untouched, naming it', async () => {
    await seed0x('mixed', 'fine');
    await seed0x('mixed', 'py', { runtime: 'python' });
    const run = await f.service.migrate(f.ctx(), request({ namespaces: ['mixed'] }));
    expect(release('fine', 'mixed')!.spec.chartRef.name).toBe('agent');
    expect(f.kube.store.find('ocirepositories', 'mixed', 'agent-2')).toBeUndefined();
    expect(run.actions).toEqual([expect.stringMatching(/^mixed: the namespace was left untouched: py cannot move/)]);
    expect(run.reports[0]!.agents.find((a) => a.name === 'py')!.refusals[0]).toMatch(/^runtime python/);
  });

  it('only reports the releases of a namespace searched read-only (--gitops-namespaces), writing nothing there', async () => {
    const before = release('git-skill');
    const run = await f.service.migrate(f.ctx(), request({ readOnly: ['team'] }));
    expect(run.reports[0]!.agents.map((a) => a.action)).toEqual(['move', 'move']);
    expect(run.actions).toEqual([expect.stringMatching(/^team: git-skill is in a namespace migrate searches read-only/),
      expect.stringMatching(/^team: oci-skill is in a namespace migrate searches read-only/)]);
    expect(release('git-skill')).toEqual(before);
    expect(f.kube.store.find('ocirepositories', 'team', 'agent-2')).toBeUndefined();
  });

  it('brings a namespace back to 0.x with the reverse run', async () => {
    const before = release('git-skill')!.spec.values;
    await f.service.migrate(f.ctx(), request());
    const back = await f.service.migrate(f.ctx(), request({ to: '0.x' }));
    expect(back.actions).toEqual([]);
    expect(release('git-skill')!.spec.chartRef.name).toBe('agent-0');
    expect(release('git-skill')!.spec.values).toEqual({ ...before, agent: { name: 'git-skill' } });
  });

  it('fails before writing anything when the cluster does not serve api.kagent.dev', async () => {
    f = startFakeServiceFixture({ settings: { namespaces: new ManagedNamespaces('kagent', ['team']),
      apiVersions: { ...DEFAULT_API_VERSIONS, agentV2: undefined } } });
    await expect(f.service.migrate(f.ctx(), request())).rejects.toThrow(
      /the target chart 2\.x renders Agent of group api\.kagent\.dev, which the cluster does not serve .* nothing was changed$/);
  });
});

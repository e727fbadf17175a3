import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { buildHelmRelease, buildOciRepository, type ComposeConfig } from '../writes/compose.js';
import { isAppError } from '../errors.js';
import { locateRelease, planCreate, planDelete, planUpdate, type PlanInput } from './commit-plan.js';

const cfg: ComposeConfig = {
  chartOciUrl: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', chartSemver: 'x.x.x', helmReleaseInterval: '10m',
  ociRepositoryInterval: '30m', apiVersions: { helmRelease: 'helm.toolkit.fluxcd.io/v2', ociRepository: 'source.toolkit.fluxcd.io/v1' },
};

const SRE = `# Platform agents: reviewed by the SRE team
apiVersion: v1
kind: ConfigMap
metadata: {name: notes, namespace: kagent}   # flow style kept
data:
  a: "1"
---
# the sre agent
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: sre
  namespace: kagent
spec:
  interval: 10m # how often Flux looks
  chartRef: {kind: OCIRepository, name: agent, namespace: kagent}
  values:
    # who it is
    agent:
      name: sre
      displayName: 'SRE'
    modelConfig:
      name: default-model-config
    toolset:
      - kubernetes # the cluster
      - prometheus
`;

const input = (files: Record<string, string>, extra: Partial<PlanInput> = {}): PlanInput => ({
  files, directory: 'clusters/prod', namespace: 'kagent', name: 'sre', where: 'acme/fleet@main', prune: true, ...extra,
});

const content = (plan: { files: Array<{ path: string; content?: string }> }, path: string) =>
  plan.files.find((f) => f.path === path)?.content;

describe('commit-mode planning', () => {
  it('edits spec.values in place: comments, key order, quoting and the other documents survive', () => {
    const files = { 'clusters/prod/kustomization.yaml': 'resources: [agents.yaml]\n', 'clusters/prod/agents.yaml': SRE };
    const values = { agent: { name: 'sre', displayName: 'SRE' }, modelConfig: { name: 'default-model-config' }, toolset: ['kubernetes', 'flux'] };
    const plan = planUpdate(input(files), values, buildHelmRelease('kagent', 'sre', values, cfg), buildOciRepository('kagent', cfg));
    expect(plan.releasePath).toBe('clusters/prod/agents.yaml');
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([['clusters/prod/agents.yaml', 'update']]);
    const text = content(plan, 'clusters/prod/agents.yaml')!;
    expect(text).toBe(SRE.replace('      - prometheus\n', '      - flux\n'));
    expect(parseAllDocuments(text)[1]!.toJS().spec.values).toEqual(values);
  });

  it('bases the change on git\'s values, keeps a replaced line\'s comment and quoting, and reports where the live values differ', () => {
    const files = { 'clusters/prod/agents.yaml': SRE };
    const live = { agent: { name: 'sre', displayName: 'SRE' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:full'] };
    const plan = planUpdate(input(files), (base) => ({ ...base!, agent: { name: 'sre', displayName: 'Ops' }, toolset: ['helm', 'prometheus'] }),
      (values) => buildHelmRelease('kagent', 'sre', values, cfg), buildOciRepository('kagent', cfg), live);
    expect(plan.base).toEqual({ agent: { name: 'sre', displayName: 'SRE' }, modelConfig: { name: 'default-model-config' }, toolset: ['kubernetes', 'prometheus'] });
    expect(plan.drift).toEqual(['toolset']);
    expect(content(plan, 'clusters/prod/agents.yaml')).toBe(SRE.replace("displayName: 'SRE'", "displayName: 'Ops'").replace('- kubernetes # the cluster', '- helm # the cluster'));
  });

  it('keeps flow-style siblings of an edited value as written, and a file git already agrees with as it is', () => {
    const FLOW = 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: sre, namespace: kagent}\n' +
      'spec:\n  values:\n    agent: {name: sre}\n    modelConfig: {name: default-model-config}\n    toolset: [preset:none]\n';
    const files = { 'clusters/prod/agents.yaml': FLOW };
    const base = { agent: { name: 'sre' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] };
    const release = (values: Record<string, unknown>) => buildHelmRelease('kagent', 'sre', values, cfg);
    const edited = planUpdate(input(files), { ...base, toolset: ['preset:read-only'] }, release, buildOciRepository('kagent', cfg));
    expect(content(edited, 'clusters/prod/agents.yaml')).toBe(FLOW.replace('[preset:none]', '[preset:read-only]'));
    const same = planUpdate(input(files), base, release, buildOciRepository('kagent', cfg));
    expect(same.files).toEqual([{ path: 'clusters/prod/agents.yaml', action: 'unchanged', content: FLOW }]);
  });

  it.each([
    ['an inline JSON6902 patch with a target', 'clusters/prod/kustomization.yaml', {
      'clusters/prod/kustomization.yaml': 'resources: [agents.yaml]\npatches:\n  - target: {kind: HelmRelease, name: sre}\n' +
        '    patch: |\n      - op: replace\n        path: /spec/values/toolset\n        value: [preset:full]\n',
    }],
    ['a patch file without a target, which is no second definition', 'clusters/prod/sre-patch.yaml', {
      'clusters/prod/kustomization.yaml': 'resources: [agents.yaml]\npatches:\n  - path: sre-patch.yaml\n',
      'clusters/prod/sre-patch.yaml': 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\n' +
        'metadata: {name: sre, namespace: kagent}\nspec:\n  values:\n    toolset: [preset:full]\n',
    }],
  ])('refuses with 409 an update of a release %s changes, naming it, since Flux applies the patch over the edit', (_case, where, extra) => {
    const files = { 'clusters/prod/agents.yaml': SRE, ...extra };
    const values = { agent: { name: 'sre' }, toolset: ['preset:none'] };
    try {
      planUpdate(input(files), values, buildHelmRelease('kagent', 'sre', values, cfg), buildOciRepository('kagent', cfg));
      expect.unreachable();
    } catch (err) {
      expect(isAppError(err) && err.status).toBe(409);
      expect((err as Error).message).toContain(`is changed by a kustomize patch (${where}): agent-manager would edit clusters/prod/agents.yaml`);
    }
  });

  it('edits a release whose kustomization patches only another one', () => {
    const files = {
      'clusters/prod/agents.yaml': SRE,
      'clusters/prod/kustomization.yaml': 'resources: [agents.yaml]\npatches:\n  - target: {kind: HelmRelease, name: ops}\n    patch: "[]"\n',
    };
    const values = { agent: { name: 'sre' }, toolset: ['preset:none'] };
    const plan = planUpdate(input(files), values, buildHelmRelease('kagent', 'sre', values, cfg), buildOciRepository('kagent', cfg));
    expect(plan.releasePath).toBe('clusters/prod/agents.yaml');
  });

  it('refuses a release its Kustomization applied but git does not define, naming where it looked', () => {
    const err = (() => { try { planUpdate(input({ 'clusters/prod/kustomization.yaml': 'resources: []\n' }, { ownedBy: 'flux-system/prod' }), {}, buildHelmRelease('kagent', 'sre', {}, cfg), buildOciRepository('kagent', cfg)); } catch (e) { return e; } })();
    expect(isAppError(err, 'conflict')).toBe(true);
    expect((err as Error).message).toMatch(/^conflict: HelmRelease kagent\/sre is applied by Flux Kustomization flux-system\/prod, but no file below path clusters\/prod of acme\/fleet@main defines it; nothing was proposed/);
    expect(() => planDelete(input({}, { ownedBy: 'flux-system/prod' }), [])).toThrow(/^conflict: HelmRelease kagent\/sre is applied by Flux Kustomization/);
  });

  it('adds and removes keys of values without touching the rest', () => {
    const files = { 'clusters/prod/agents.yaml': SRE };
    const values = { agent: { name: 'sre', displayName: 'SRE', description: 'on call' }, modelConfig: { name: 'default-model-config' } };
    const plan = planUpdate(input(files), values, buildHelmRelease('kagent', 'sre', values, cfg), buildOciRepository('kagent', cfg));
    const text = content(plan, 'clusters/prod/agents.yaml')!;
    expect(text).toContain("      displayName: 'SRE'\n      description: on call\n");
    expect(text).not.toContain('toolset');
    expect(text).toContain('# who it is');
    expect(text.startsWith(SRE.slice(0, SRE.indexOf('---')))).toBe(true);
  });

  it('refuses a release defined twice, naming both files', () => {
    const files = { 'clusters/prod/a.yaml': SRE, 'clusters/prod/b/sre.yaml': SRE.slice(SRE.indexOf('---') + 4) };
    const err = (() => { try { locateRelease(input(files)); planUpdate(input(files), {}, buildHelmRelease('kagent', 'sre', {}, cfg), buildOciRepository('kagent', cfg)); } catch (e) { return e; } })();
    expect(isAppError(err, 'conflict')).toBe(true);
    expect((err as Error).message).toBe('conflict: HelmRelease kagent/sre is defined more than once in acme/fleet@main: clusters/prod/a.yaml and clusters/prod/b/sre.yaml; keep one definition, then retry');
  });

  it('lays a new agent out under agent-manager/ with its source and kustomizations, listed in the parent', () => {
    const files = { 'clusters/prod/kustomization.yaml': '# prod\nresources:\n  - apps.yaml\n', 'clusters/prod/apps.yaml': 'kind: ConfigMap\n' };
    const values = { agent: { name: 'ops' }, modelConfig: { name: 'default-model-config' }, toolset: ['kubernetes'] };
    const release = buildHelmRelease('kagent', 'ops', values, cfg);
    const plan = planCreate(input(files, { name: 'ops' }), release, buildOciRepository('kagent', cfg));
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([
      ['clusters/prod/agent-manager/agent.yaml', 'add'],
      ['clusters/prod/agent-manager/kustomization.yaml', 'add'],
      ['clusters/prod/agent-manager/ops.yaml', 'add'],
      ['clusters/prod/kustomization.yaml', 'update'],
    ]);
    expect(parse(content(plan, 'clusters/prod/agent-manager/ops.yaml')!)).toEqual(release);
    expect(parse(content(plan, 'clusters/prod/agent-manager/agent.yaml')!)).toEqual(buildOciRepository('kagent', cfg));
    expect(parse(content(plan, 'clusters/prod/agent-manager/kustomization.yaml')!).resources).toEqual(['agent.yaml', 'ops.yaml']);
    expect(content(plan, 'clusters/prod/kustomization.yaml')).toBe('# prod\nresources:\n  - apps.yaml\n  - agent-manager\n');
  });

  it('adds a second agent next to the first without a second source', () => {
    const first = planCreate(input({ 'clusters/prod/kustomization.yaml': 'resources: []\n' }, { name: 'ops' }), buildHelmRelease('kagent', 'ops', {}, cfg), buildOciRepository('kagent', cfg));
    const files = Object.fromEntries(first.files.map((f) => [f.path, f.content!]));
    const second = planCreate(input(files, { name: 'dev' }), buildHelmRelease('kagent', 'dev', {}, cfg), buildOciRepository('kagent', cfg));
    expect(second.files.map((f) => [f.path, f.action])).toEqual([
      ['clusters/prod/agent-manager/dev.yaml', 'add'],
      ['clusters/prod/agent-manager/kustomization.yaml', 'update'],
      ['clusters/prod/kustomization.yaml', 'unchanged'],
    ]);
    expect(parse(content(second, 'clusters/prod/agent-manager/kustomization.yaml')!).resources).toEqual(['agent.yaml', 'ops.yaml', 'dev.yaml']);
  });

  it('lays out an updated release the repository does not define, listing the files it adds', () => {
    const values = { agent: { name: 'ops', displayName: 'Ops' }, modelConfig: { name: 'default-model-config' }, toolset: ['kubernetes'] };
    const release = buildHelmRelease('kagent', 'ops', values, cfg);
    const plan = planUpdate(input({ 'clusters/prod/kustomization.yaml': 'resources: []\n' }, { name: 'ops' }), values, release, buildOciRepository('kagent', cfg));
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([
      ['clusters/prod/agent-manager/agent.yaml', 'add'],
      ['clusters/prod/agent-manager/kustomization.yaml', 'add'],
      ['clusters/prod/agent-manager/ops.yaml', 'add'],
      ['clusters/prod/kustomization.yaml', 'update'],
    ]);
    expect(plan.releasePath).toBe('clusters/prod/agent-manager/ops.yaml');
    expect(parse(content(plan, 'clusters/prod/agent-manager/ops.yaml')!)).toEqual(release);
  });

  it('refuses to create an agent the repository already defines', () => {
    expect(() => planCreate(input({ 'clusters/prod/agents.yaml': SRE }), buildHelmRelease('kagent', 'sre', {}, cfg), buildOciRepository('kagent', cfg)))
      .toThrow('conflict: HelmRelease kagent/sre is already defined in acme/fleet@main: clusters/prod/agents.yaml; use update_agent to change it');
  });

  it('deletes the last layout agent with its source and directory; with prune there is nothing to do by hand', () => {
    const created = planCreate(input({ 'clusters/prod/kustomization.yaml': 'resources:\n  - apps.yaml\n' }, { name: 'ops' }), buildHelmRelease('kagent', 'ops', {}, cfg), buildOciRepository('kagent', cfg));
    const files = { ...Object.fromEntries(created.files.map((f) => [f.path, f.content!])) };
    const plan = planDelete(input(files, { name: 'ops' }), []);
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([
      ['clusters/prod/agent-manager/agent.yaml', 'remove'],
      ['clusters/prod/agent-manager/kustomization.yaml', 'remove'],
      ['clusters/prod/agent-manager/ops.yaml', 'remove'],
      ['clusters/prod/kustomization.yaml', 'update'],
    ]);
    expect(content(plan, 'clusters/prod/kustomization.yaml')).toBe('resources:\n  - apps.yaml\n');
    expect(plan.liveSteps).toBeUndefined();
  });

  it('without prune, says what to delete from the cluster by hand; a source still used stays', () => {
    const plan = planDelete(input({ 'clusters/prod/agents.yaml': SRE }, { prune: false }), ['other']);
    expect(plan.files).toEqual([{ path: 'clusters/prod/agents.yaml', action: 'update', content: SRE.slice(0, SRE.indexOf('---')) }]);
    expect(plan.liveSteps).toEqual(['kubectl delete helmreleases.helm.toolkit.fluxcd.io sre -n kagent']);
  });

  it('answers 404 for a delete of a release the repository does not define', () => {
    expect(() => planDelete(input({}), [])).toThrow('not found: HelmRelease kagent/sre is not defined in acme/fleet@main under clusters/prod');
  });
});

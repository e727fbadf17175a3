import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ComposedObject } from '../writes/compose.js';
import { planMove } from './commit-move.js';
import { mapTo2x } from './map-to-2x.js';

const RELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: sre
  namespace: team
spec:
  interval: 10m
  chartRef:
    kind: OCIRepository
    name: agent
  # the agent's values
  values:
    agent:
      name: sre
      runtime: go
    modelConfig:
      name: default-model-config
    toolset: [preset:read-only]
`;
const SOURCE = {
  apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
  metadata: { name: 'agent-2', namespace: 'team', labels: {} }, spec: { url: 'oci://r/agent', ref: { semver: '2.x' } },
} as ComposedObject;
const input = (files: Record<string, string>) => ({
  files, directory: 'clusters/a', namespace: 'team', name: 'sre', where: 'acme/gitops@main',
  ownedBy: 'flux-system/agents',
});

describe('the pull request that moves a GitOps-owned release', () => {
  it('changes the values and chartRef in the defining document and adds the new source beside it', () => {
    const plan = planMove(input({
      'clusters/a/agents/sre.yaml': RELEASE, 'clusters/a/agents/kustomization.yaml': 'resources:\n  - sre.yaml\n',
    }), (base) => mapTo2x(base), 'agent-2', SOURCE);
    const byPath = Object.fromEntries(plan.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(['clusters/a/agents/agent-2.yaml', 'clusters/a/agents/kustomization.yaml',
      'clusters/a/agents/sre.yaml']);
    const release = parse(byPath['clusters/a/agents/sre.yaml']!.content!) as { spec: Record<string, any> };
    expect(release.spec.chartRef).toEqual({ kind: 'OCIRepository', name: 'agent-2' });
    expect(release.spec.values).toEqual({ agent: { name: 'sre', harness: 'kagent' },
      modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only'] });
    expect(byPath['clusters/a/agents/sre.yaml']!.content).toContain('# the agent\'s values');
    expect(parse(byPath['clusters/a/agents/agent-2.yaml']!.content!)).toMatchObject({ metadata: { name: 'agent-2' } });
    expect(byPath['clusters/a/agents/kustomization.yaml']!.content).toContain('agent-2.yaml');
  });

  it('refuses git\'s values that cannot move, naming why', () => {
    const python = RELEASE.replace('runtime: go', 'runtime: python');
    expect(() => planMove(input({ 'clusters/a/agents/sre.yaml': python }), (base) => mapTo2x(base), 'agent-2', SOURCE))
      .toThrow(/git's values of team\/sre cannot move: runtime python/);
  });
});

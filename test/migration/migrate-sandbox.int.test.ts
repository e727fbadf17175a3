/**
 * `migrate` end to end on the sandbox with its controllers (source-, helm- and the kagent controllers of both
 * lines): agents of every shape the mapping covers move from chart 0.x to 2.x keeping their names, toolsets and
 * skills, are ready on 2.x, their old Agents gone after contract, the report ConfigMap holds the diffs; a reverse
 * run brings a namespace back; a namespace with one unmappable agent is left untouched. A namespace per test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedNamespacePair, startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { ServiceAccountProvider } from '../../src/kube/providers.js';
import { silentLogger } from '../../src/log/logger.js';
import { AgentService } from '../../src/service/agent-service.js';
import type { MigrateRequest } from '../../src/service/migration/run-migration.js';
import { ManagedNamespaces } from '../../src/service/namespaces.js';
import { EmbeddedChartSource } from '../support/service/embedded-chart.js';
import { CHART_URL, fixtureSettings } from '../support/service/fixture-settings.js';

const COMMIT = 'a'.repeat(40);
const OCI = `ghcr.io/acme/skills/runbooks@sha256:${'b'.repeat(64)}`;
const log = silentLogger();
const ctx = () => ({ requestId: 'migrate-test', log });
let sandbox: Sandbox;
let provider: ServiceAccountProvider;

type Json = Record<string, any>;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: true, controllers: true, reconcileDelayMs: 20 });
  provider = new ServiceAccountProvider(loadBaseKubeConfig({
    kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.adminToken, name: 'platform-engineer' }),
  }));
});
afterAll(async () => {
  provider?.close();
  await sandbox?.close();
});

/** A namespace pair of its own, on 0.x with the Harness kagent, and a service managing it. */
function namespace(ns: string): AgentService {
  seedNamespacePair(sandbox.store, ns, `${ns}-tenant`);
  return new AgentService({ kube: provider, chart: new EmbeddedChartSource(CHART_URL), log },
    fixtureSettings({ namespaces: new ManagedNamespaces(ns, [`${ns}-tenant`]) }));
}

const run = (service: AgentService, ns: string, overrides: Partial<MigrateRequest> = {}) => service.migrate(ctx(), {
  namespaces: [ns], to: '2.x', phases: ['expand', 'wait', 'contract'], dryRun: false, timeoutMs: 60_000,
  reportConfigMap: 'agent-manager-migrate-report', mapping: {}, ...overrides,
});
const get = (resource: string, ns: string, name: string) => sandbox.store.find(resource, ns, name) as Json | undefined;

/** Agents of every shape the mapping covers, created on 0.x and ready there. */
async function seedShapes(service: AgentService, ns: string): Promise<void> {
  const base = { namespace: ns, modelConfig: 'default-model-config', wait: 60 };
  const created = await Promise.all([
    service.createAgent(ctx(), { ...base, name: 'git-skill', toolset: ['preset:read-only'], runtime: 'go',
      skills: { gitRefs: [{ url: 'https://github.com/acme/skills', path: 'k8s', ref: COMMIT }] } }),
    service.createAgent(ctx(), { ...base, name: 'oci-skill', toolset: ['preset:none'], skills: { refs: [OCI] } }),
    service.createAgent(ctx(), { ...base, name: 'extras', toolset: ['tool:x_kubernetes_get'], systemMessage: 'be kind' }),
  ]);
  expect(created.map((c) => c.status?.verdict)).toEqual(['ready', 'ready', 'ready']);
  // What agent-manager never writes but a 0.x release can hold: muster.toolNames and extraAgentSpec of template fields.
  const extras = structuredClone(get('helmreleases', ns, 'extras')!);
  extras.spec.values.muster = { toolNames: ['x_kubernetes_get'] };
  extras.spec.values.extraAgentSpec = { description: 'from extraAgentSpec' };
  sandbox.store.update('helmreleases', extras);
}

describe('agent-manager migrate on the sandbox', () => {
  it('plans a dry run without writing anything, the report complete', async () => {
    const service = namespace('mig-dry');
    await seedShapes(service, 'mig-dry');
    // What a write would change (controllers keep writing status meanwhile).
    const specs = () => sandbox.store.list('helmreleases', { namespace: 'mig-dry' }).items
      .map((r) => [(r as Json).metadata.name, (r as Json).metadata.generation, (r as Json).spec]);
    const before = specs();
    const result = await run(service, 'mig-dry', { dryRun: true });
    expect(specs()).toEqual(before);
    expect(get('ocirepositories', 'mig-dry', 'agent-2')).toBeUndefined();
    expect(get('configmaps', 'mig-dry', 'agent-manager-migrate-report')).toBeUndefined();
    const [report] = result.reports;
    expect(report!.agents.map((a) => [a.name, a.action])).toEqual([
      ['extras', 'move'], ['git-skill', 'move'], ['oci-skill', 'move'],
    ]);
    expect(report!.agents.every((a) => a.diff.includes('+  harness: kagent'))).toBe(true);
    expect(report!.agents[0]!.notes).toContain('runtime (unset) → Harness kagent');
  });

  it('moves every agent to 2.x: names, toolsets and pinned skills kept, ready, old Agents gone, diffs reported',
    async () => {
      const service = namespace('mig-all');
      await seedShapes(service, 'mig-all');
      const result = await run(service, 'mig-all');
      expect(result.actions).toEqual([]);
      for (const name of ['extras', 'git-skill', 'oci-skill']) {
        expect(get('helmreleases', 'mig-all', name)!.spec.chartRef.name).toBe('agent-2');
        expect(get('agents.api.kagent.dev', 'mig-all', name)).toBeDefined();
        expect(get('agents.kagent.dev', 'mig-all', name)).toBeUndefined();
        expect(result.reports[0]!.agents.find((a) => a.name === name)!.ready).toBe('ready');
      }
      expect(get('helmreleases', 'mig-all', 'git-skill')!.spec.values).toMatchObject({
        agent: { name: 'git-skill', harness: 'kagent' }, toolset: ['preset:read-only'],
        skills: [{ name: 'k8s', git: { url: 'https://github.com/acme/skills', commit: COMMIT }, path: 'k8s' }],
      });
      expect(get('helmreleases', 'mig-all', 'oci-skill')!.spec.values.skills).toEqual([{ name: 'runbooks', oci: OCI }]);
      expect(get('helmreleases', 'mig-all', 'extras')!.spec.values).toMatchObject({
        toolset: ['tool:x_kubernetes_get'], extraAgentSpec: { description: 'from extraAgentSpec' } });
      expect(get('helmreleases', 'mig-all', 'extras')!.spec.values.muster).toBeUndefined();
      const agent = await service.getAgent(ctx(), { namespace: 'mig-all', name: 'git-skill' });
      expect(agent).toMatchObject({ name: 'git-skill', ready: true, harness: 'kagent' });
      const data = get('configmaps', 'mig-all', 'agent-manager-migrate-report')!.data as Record<string, string>;
      expect(Object.keys(data).sort()).toEqual(['extras.diff', 'git-skill.diff', 'oci-skill.diff', 'phase',
        'report.yaml', 'summary']);
      expect(get('ocirepositories', 'mig-all', 'agent')!.spec.ref.semver).toBe('2.x');
    });

  it('brings a namespace back to 0.x with the reverse run', async () => {
    const service = namespace('mig-back');
    await service.createAgent(ctx(), { namespace: 'mig-back', name: 'sre', modelConfig: 'default-model-config',
      toolset: ['preset:read-only'], skills: { refs: [OCI] }, wait: 60 });
    const before = get('helmreleases', 'mig-back', 'sre')!.spec.values;
    expect((await run(service, 'mig-back')).actions).toEqual([]);
    const back = await run(service, 'mig-back', { to: '0.x' });
    expect(back.actions).toEqual([]);
    expect(get('helmreleases', 'mig-back', 'sre')!.spec).toMatchObject({ chartRef: { name: 'agent-0' }, values: before });
    expect(get('agents.kagent.dev', 'mig-back', 'sre')).toBeDefined();
    expect(get('agents.api.kagent.dev', 'mig-back', 'sre')).toBeUndefined();
    expect(back.reports[0]!.agents[0]!.ready).toBe('ready');
  });

  it('leaves a namespace with one unmappable agent untouched, naming it', async () => {
    const service = namespace('mig-py');
    const base = { namespace: 'mig-py', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 };
    await service.createAgent(ctx(), { ...base, name: 'fine' });
    await service.createAgent(ctx(), { ...base, name: 'snake', runtime: 'python' });
    const result = await run(service, 'mig-py');
    expect(result.actions[0]).toMatch(/^mig-py: the namespace was left untouched: snake cannot move to chart 2\.x/);
    expect(get('helmreleases', 'mig-py', 'fine')!.spec.chartRef.name).toBe('agent');
    expect(get('ocirepositories', 'mig-py', 'agent-2')).toBeUndefined();
    expect(get('ocirepositories', 'mig-py', 'agent')!.spec.ref.semver).toBe('0.x');
  });
});

/**
 * The service fixture on the in-memory FakeKube instead of the sandbox API server: the same
 * AgentService, settings and embedded chart as fixture.ts, the same seeds (they write
 * through `kube.store`), and no HTTP, TLS or API machinery in between. For unit tests of
 * the service's decisions; what the wire does (selectors, patches, RBAC, watch) stays with
 * the suites that run the sandbox.
 */
import { silentLogger, type Logger } from '../../../src/log/logger.js';
import type { RequestContext } from '../../../src/identity/caller.js';
import { AgentService } from '../../../src/service/agent-service.js';
import type { ChartSchemaSource, SkillCatalog, SkillResolver } from '../../../src/service/ports.js';
import type { ServiceSettings } from '../../../src/service/settings.js';
import type { ToolsetResolver } from '../../../src/service/guards/toolset-port.js';
import { EmbeddedChartSource } from './embedded-chart.js';
import { FakeKube } from './fake-kube.js';
import { CHART_URL, fixtureSettings } from './fixture-settings.js';
import { seedModelConfig } from './seed-agents.js';

export interface FakeFixtureOptions {
  settings?: Partial<ServiceSettings>;
  /** muster's filter_tools for the claude-Harness guards; default: none (those writes fail closed). */
  toolsets?: ToolsetResolver;
  chart?: ChartSchemaSource;
  skills?: SkillCatalog;
  /** Pins skills at write time; absent, skills are written as given. */
  skillResolver?: SkillResolver;
  log?: Logger;
}

export interface FakeServiceFixture {
  kube: FakeKube;
  service: AgentService;
  settings: ServiceSettings;
  ctx(overrides?: Partial<RequestContext>): RequestContext;
}

/** A FakeKube holding what the sandbox's default seed gives the service: two accepted ModelConfigs and the shared
 * source in kagent. */
export function startFakeServiceFixture(options: FakeFixtureOptions = {}): FakeServiceFixture {
  const kube = new FakeKube();
  seedModelConfig(kube, 'kagent', 'default-model-config', 'Anthropic', 'claude-sonnet-4-6');
  seedModelConfig(kube, 'kagent', 'qwen3-8-27b', 'OpenAI', 'qwen3-8-27b');
  kube.store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
    metadata: { name: 'agent', namespace: 'kagent', labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: { interval: '30m', url: CHART_URL, ref: { semver: '0.x' } },
  });
  const log = options.log ?? silentLogger();
  const settings = fixtureSettings(options.settings);
  const service = new AgentService(
    {
      kube: kube.provider(), chart: options.chart ?? new EmbeddedChartSource(CHART_URL), skills: options.skills,
      skillResolver: options.skillResolver, toolsets: options.toolsets, log,
    },
    settings,
  );
  let n = 0;
  return { kube, service, settings, ctx: (overrides = {}) => ({ requestId: `test-${++n}`, log, ...overrides }) };
}

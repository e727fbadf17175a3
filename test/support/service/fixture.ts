/**
 * The service test fixture: a seeded sandbox API server on loopback and a real
 * AgentService talking to it through @kubernetes/client-node as the agent-manager
 * ServiceAccount, with the embedded chart schema. Mirrors the Go tests' `seeded`
 * fixture: managed namespaces kagent (default) and tenant, two
 * accepted ModelConfigs, the shared OCIRepository kagent/agent.
 */
import type { ToolsetResolver } from '../../../src/service/guards/toolset-port.js';
import { generateTls, startSandbox, type Sandbox, type SandboxOptions, type SandboxTls } from '@agent-manager/kube-sandbox';
import { silentLogger, type Logger } from '../../../src/log/logger.js';
import type { RequestContext } from '../../../src/identity/caller.js';
import { loadBaseKubeConfig } from '../../../src/kube/kubeconfig.js';
import { ServiceAccountProvider } from '../../../src/kube/providers.js';
import { AgentService } from '../../../src/service/agent-service.js';
import type { ChartSchemaSource, GitOpsHost, KubeProvider, SkillCatalog, SkillResolver, WorkloadClusters } from '../../../src/service/ports.js';
import type { ServiceSettings } from '../../../src/service/settings.js';
import { CHART_URL, fixtureSettings } from './fixture-settings.js';
import { EmbeddedChartSource } from './embedded-chart.js';
import { KagentA2A } from '../../../src/a2a/kagent-a2a.js';
import type { SessionsDeps } from '../../../src/service/sessions/session-port.js';

export { CHART_URL, fixtureSettings } from './fixture-settings.js';

/** Sessions over the sandbox's kagent A2A endpoint (start the sandbox with controllers), as the service wires them. */
export function sandboxSessions(oauth = false): (sandbox: Sandbox) => SessionsDeps {
  return (sandbox) => ({ a2a: new KagentA2A({ baseUrl: sandbox.a2aUrl ?? '', fetch: globalThis.fetch }), oauth });
}

export interface FixtureOptions {
  sandbox?: SandboxOptions;
  settings?: Partial<ServiceSettings>;
  chart?: ChartSchemaSource;
  skills?: SkillCatalog;
  /** Pins skills at write time; absent, skills are written as given. */
  skillResolver?: SkillResolver;
  gitops?: GitOpsHost;
  /** Build the provider from the sandbox (default: the ServiceAccount). */
  provider?: (sandbox: Sandbox) => KubeProvider & { close?(): void };
  /** Aborts every wait, as the server's shutdown does. */
  shutdown?: AbortSignal;
  /** The session tools' A2A client (e.g. over the sandbox's endpoint); default: off. */
  sessions?: (sandbox: Sandbox) => SessionsDeps | undefined;
  /** The workload clusters agents can be placed on (built from the management sandbox); default: none. */
  workloads?: (sandbox: Sandbox) => WorkloadClusters & { close?(): void };
  /** muster's filter_tools for the claude-Harness guards; default: none (those writes fail closed). */
  toolsets?: ToolsetResolver;
  log?: Logger;
}

export interface ServiceFixture {
  sandbox: Sandbox;
  service: AgentService;
  settings: ServiceSettings;
  /** A request context (no caller: the ServiceAccount mode). */
  ctx(overrides?: Partial<RequestContext>): RequestContext;
  close(): Promise<void>;
}

// One CA for the fixtures a test worker starts (each sandbox would generate its own, ~30 ms of CPU).
let fixtureTls: Promise<SandboxTls> | undefined;

export async function startServiceFixture(options: FixtureOptions = {}): Promise<ServiceFixture> {
  fixtureTls ??= generateTls();
  const sandbox = await startSandbox({ seed: true, tls: await fixtureTls, ...options.sandbox });
  const provider = options.provider?.(sandbox) ?? new ServiceAccountProvider(loadBaseKubeConfig({
    kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }),
  }));
  const log = options.log ?? silentLogger();
  const settings = fixtureSettings(options.settings);
  const workloads = options.workloads?.(sandbox);
  const service = new AgentService(
    {
      kube: provider, chart: options.chart ?? new EmbeddedChartSource(CHART_URL), skills: options.skills,
      skillResolver: options.skillResolver, gitops: options.gitops, sessions: options.sessions?.(sandbox),
      shutdown: options.shutdown, workloads, toolsets: options.toolsets, log,
    },
    settings,
  );
  let n = 0;
  return {
    sandbox,
    service,
    settings,
    ctx: (overrides = {}) => ({ requestId: `test-${++n}`, log, ...overrides }),
    async close() {
      (provider as { close?(): void }).close?.();
      workloads?.close?.();
      await sandbox.close();
    },
  };
}

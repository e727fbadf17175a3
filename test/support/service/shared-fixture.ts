/**
 * One sandbox per test worker, a namespace pair per fixture: suites that only need the
 * default seed share their worker's sandbox (started on first use, left to the worker's exit)
 * and work in namespaces of their own, `<label>` as kagent and `<label>-tenant` as tenant, as
 * controller suites share one test environment with a namespace per test. A fixture restores
 * the sandbox's authorizer and clears its faults when it closes, so the next file starts clean.
 */
import { seedNamespacePair, startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { silentLogger } from '../../../src/log/logger.js';
import type { RequestContext } from '../../../src/identity/caller.js';
import { loadBaseKubeConfig } from '../../../src/kube/kubeconfig.js';
import { ServiceAccountProvider } from '../../../src/kube/providers.js';
import { AgentService } from '../../../src/service/agent-service.js';
import { ManagedNamespaces } from '../../../src/service/namespaces.js';
import { EmbeddedChartSource } from './embedded-chart.js';
import { CHART_URL, fixtureSettings } from './fixture-settings.js';
import type { FixtureOptions, ServiceFixture } from './fixture.js';

/** The ports of servers a worker keeps for all its files; the integration guard does not count them. */
const WORKER_SERVERS = Symbol.for('agent-manager.worker-servers');

const KEY = Symbol.for('agent-manager.worker-sandbox');
const holder = globalThis as unknown as Record<symbol, Promise<Sandbox> | Set<number> | undefined>;

/** This worker's shared, seeded sandbox (no controllers, no RBAC). */
export function workerSandbox(): Promise<Sandbox> {
  const existing = holder[KEY] as Promise<Sandbox> | undefined;
  if (existing) return existing;
  const started = startSandbox({ seed: true }).then((sandbox) => {
    const ports = (holder[WORKER_SERVERS] as Set<number> | undefined) ?? new Set<number>();
    holder[WORKER_SERVERS] = ports;
    ports.add(Number(new URL(sandbox.url).port));
    return sandbox;
  });
  holder[KEY] = started;
  return started;
}

/** The two namespace names a fixture labelled `label` works in (a DNS-1123 label each). */
export function namespacesOf(label: string): { home: string; tenant: string } {
  if (!/^[a-z0-9]([-a-z0-9]{0,47}[a-z0-9])?$/.test(label)) throw new Error(`fixture label "${label}" is not a short DNS-1123 label`);
  return { home: label, tenant: `${label}-tenant` };
}

export interface NamespacedFixture extends ServiceFixture {
  /** The namespace in the role of kagent (the default one, with the ModelConfigs and the shared source). */
  home: string;
  /** The second managed namespace, in the role of tenant. */
  tenant: string;
}

type SharedOptions = Pick<FixtureOptions, 'settings' | 'chart' | 'skills' | 'skillResolver' | 'log'>;

/** A real AgentService as the ServiceAccount, managing `namespacesOf(label)` on the worker's sandbox. */
export async function startNamespacedFixture(label: string, options: SharedOptions = {}): Promise<NamespacedFixture> {
  const { home, tenant } = namespacesOf(label);
  const sandbox = await workerSandbox();
  seedNamespacePair(sandbox.store, home, tenant);
  const authorizer = sandbox.authorizer;
  const provider = new ServiceAccountProvider(loadBaseKubeConfig({
    kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }),
  }));
  const log = options.log ?? silentLogger();
  const settings = fixtureSettings({ namespaces: new ManagedNamespaces(home, [tenant]), ...options.settings });
  const service = new AgentService({
    kube: provider, chart: options.chart ?? new EmbeddedChartSource(CHART_URL), skills: options.skills,
    skillResolver: options.skillResolver, log,
  }, settings);
  let n = 0;
  return {
    sandbox, service, settings, home, tenant,
    ctx: (overrides: Partial<RequestContext> = {}) => ({ requestId: `test-${++n}`, log, ...overrides }),
    close: () => {
      provider.close?.();
      sandbox.authorizer = authorizer;
      sandbox.faults.clear();
      sandbox.counters.reset();
      return Promise.resolve();
    },
  };
}

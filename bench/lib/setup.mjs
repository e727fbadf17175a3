// The system under test for bench/run.mjs, from the benchmarks' build of src/ with its testing/
// folders (bench/.tmp/dist, `npm run build:bench`; dist/ ships without them): the sandbox API
// server with the service fixture's seed, the real AgentService talking to it through
// @kubernetes/client-node as the ServiceAccount (the same client stack as `serve`, loaded from
// the package rather than dist/'s bundle of it: the same code, a slower start), and
// the production app (REST, MCP, metrics) on a loopback listener. Agents are
// seeded through the sandbox store: 10, 500 and 2,000 in namespaces of their own, one
// fully rendered agent with a workload for status and get, and an empty namespace the
// creates write into (emptied between runs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '.tmp', 'dist');
const load = (path) => import(join(dist, path));

/** The namespaces of the list cases, by agent count. */
export const LIST_SIZES = [10, 500, 2000];
export const WRITES_NAMESPACE = 'bench-writes';
export const STATUS_AGENT = 'bench-status';

/** Start everything; `close()` stops it. */
export async function startBenchTarget() {
  let modules;
  try {
    modules = {
      fixture: await load('service/testing/fixture.js'),
      seed: await load('service/testing/seed-agents.js'),
      roundTrips: await load('service/testing/round-trips.js'),
      namespaces: await load('service/namespaces.js'),
      app: await load('app.js'),
      server: await load('transport/http/server.js'),
      metrics: await load('metrics/metrics.js'),
      logger: await load('log/logger.js'),
    };
  } catch (err) {
    throw new Error(`bench: build first (npm run build:bench): ${err.message}`, { cause: err });
  }
  const listNamespaces = LIST_SIZES.map((n) => `bench-${n}`);
  const fixture = await modules.fixture.startServiceFixture({
    settings: modules.fixture.fixtureSettings({
      namespaces: new modules.namespaces.ManagedNamespaces('kagent', [...listNamespaces, WRITES_NAMESPACE]),
    }),
  });
  const { sandbox } = fixture;
  const { seedAgentCr, seedModelConfig, seedRelease, seedWorkload } = modules.seed;
  for (const ns of [...listNamespaces, WRITES_NAMESPACE]) {
    sandbox.store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
  seedModelConfig(sandbox, WRITES_NAMESPACE, 'default-model-config');
  for (const [i, count] of LIST_SIZES.entries()) {
    const namespace = listNamespaces[i];
    for (let n = 0; n < count; n++) {
      const name = `agent-${String(n).padStart(4, '0')}`;
      seedRelease(sandbox, {
        namespace, name, ready: true, chartVersion: '0.5.2',
        values: { agent: { name, displayName: `Agent ${n}`, description: 'seeded for the bench' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only'] },
      });
      seedAgentCr(sandbox, { namespace, name, release: { name, namespace }, ready: true, accepted: true, toolsetHeader: 'preset:read-only' });
    }
  }
  seedRelease(sandbox, { name: STATUS_AGENT, ready: true, chartVersion: '0.5.2' });
  seedAgentCr(sandbox, { name: STATUS_AGENT, release: { name: STATUS_AGENT, namespace: 'kagent' }, ready: true, accepted: true });
  seedWorkload(sandbox, { name: STATUS_AGENT, replicas: 2, pods: [{ name: `${STATUS_AGENT}-a`, ready: true }, { name: `${STATUS_AGENT}-b`, ready: true }] });

  const log = modules.logger.silentLogger();
  const app = modules.app.createApp({
    service: fixture.service, log, version: 'bench', metrics: new modules.metrics.Metrics({ processMetrics: false }),
  });
  const server = await modules.server.startHttpServer(app, '127.0.0.1:0');
  return {
    url: server.url,
    sandbox,
    /** Remove every HelmRelease and the source the creates wrote. */
    clearWrites() {
      sandbox.store.deleteCollection('helmreleases', { namespace: WRITES_NAMESPACE });
      sandbox.store.deleteCollection('ocirepositories', { namespace: WRITES_NAMESPACE });
    },
    /** A round-trip meter (sequential depth of one request). */
    meter: () => modules.roundTrips.meterRoundTrips(sandbox),
    async close() {
      await server.close(1000);
      await fixture.close();
    },
  };
}

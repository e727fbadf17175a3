/**
 * The real service over real HTTP for the reliability suites: the seeded sandbox API
 * server, the real AgentService talking to it through @kubernetes/client-node as the
 * ServiceAccount (the service fixture), and the production app (REST, MCP,
 * probes) on a loopback listener with the production server settings. A keep-alive
 * client is attached. `close()` stops all three.
 */
import { silentLogger } from '../../../src/log/logger.js';
import { Metrics } from '../../../src/metrics/app-metrics.js';
import { startServiceFixture, type FixtureOptions, type ServiceFixture } from '../../support/service/fixture.js';
import { createApp } from '../../../src/app.js';
import { startHttpServer, type RunningServer } from '../../../src/transport/http/http-server.js';
import { HttpClient } from './http.js';

export interface ServedAppOptions extends FixtureOptions {
  /** Record HTTP and MCP metrics as `serve` does (without the process collectors). */
  metrics?: boolean;
}

export interface ServedApp {
  fixture: ServiceFixture;
  metrics?: Metrics;
  server: RunningServer;
  client: HttpClient;
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

/** Start the sandbox, the service and the app. */
export async function startServedApp(options: ServedAppOptions = {}): Promise<ServedApp> {
  const log = options.log ?? silentLogger();
  const fixture = await startServiceFixture({ ...options, log });
  const metrics = options.metrics ? new Metrics({ processMetrics: false }) : undefined;
  const app = createApp({ service: fixture.service, log, version: 'reliability', metrics });
  const server = await startHttpServer(app, '127.0.0.1:0');
  const client = new HttpClient(server.url);
  return {
    fixture, metrics, server, client, base: server.url,
    async close() {
      client.close();
      await server.close(1_000);
      await fixture.close();
    },
  };
}

/** Requests the sandbox served that change something (create, update, patch, delete). */
export function writeCount(fixture: ServiceFixture): number {
  const { byVerb } = fixture.sandbox.counters.snapshot();
  return ['create', 'update', 'patch', 'delete', 'deletecollection'].reduce((n, verb) => n + (byVerb[verb] ?? 0), 0);
}

/**
 * The chart registry going down, hanging beyond the resolver's timeout and answering
 * garbage while the service is under load, then coming back. The real docker-registry
 * (src/chart/testing) holds charts 0.5.2 and 0.6.0; a switchable proxy in front of it
 * (support/registry-proxy.ts) misbehaves on demand. The resolver runs on an injected
 * clock, so "a minute later, when it retries" is a step of the test, not a wait.
 *
 * Claims: every request of the load answers (validate 200, create 201, delete 200,
 * info 200) whatever the registry does; while the registry has never been read,
 * validation uses the embedded schema and get_info (REST and MCP) says
 * `schemaSource: embedded` with the error; recovery needs nothing but time: the next
 * retry reads the registry and get_info and validation say so; a later outage keeps the
 * last schema read from the registry, with the error, until the registry is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryChartSchemaSource } from '../../src/chart/resolver.js';
import { schemaWithToolset, schemaWithoutToolset } from '../support/chart/chart-schemas.js';
import { pushChart } from '../support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../support/chart/registry-server.js';
import { silentLogger } from '../../src/log/logger.js';
import { budget } from './support/budget.js';
import type { HttpClient, HttpResponse } from './support/http.js';
import { startRegistryProxy, type ProxyMode, type RegistryProxy } from './support/registry-proxy.js';
import { startServedApp, type ServedApp } from './support/service-app.js';

const B = budget();
const REPO = 'charts/agent';
const REFRESH_MS = 10 * 60_000;
const RETRY_MS = 61_000;
/** What the resolver says of a registry that resets every connection. */
const DOWN = /tags\/list.*(other side closed|fetch failed|ECONNRESET|socket)/;
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED registry reliability suite: ${registry.reason}`);

interface LoadStats {
  requests: number;
  /** Answers other than the expected status, as "what → status text". */
  failures: string[];
  /** `version (source)` of every validate answer. */
  schemas: Set<string>;
}

/** Four clients looping validate, create, delete and info until stopped. */
function startLoad(client: HttpClient, clients = 4): { stats: LoadStats; stop(): Promise<LoadStats> } {
  const stats: LoadStats = { requests: 0, failures: [], schemas: new Set() };
  let running = true;
  let n = 0;
  const expectStatus = (what: string, res: HttpResponse, status: number) => {
    stats.requests++;
    if (res.status !== status || !res.complete) stats.failures.push(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
  };
  const spec = (name: string) => ({ name, modelConfig: 'default-model-config', toolset: ['preset:read-only'], description: 'load' });
  const loop = async () => {
    while (running) {
      const name = `load-${n++}`;
      const validated = await client.send('POST', '/api/v1/agents/validate', { body: spec(name) });
      expectStatus('validate', validated, 200);
      if (validated.status === 200) stats.schemas.add(`${validated.json.schemaVersion} (${validated.json.schemaSource})`);
      expectStatus('create', await client.send('POST', '/api/v1/agents', { body: spec(name) }), 201);
      expectStatus('delete', await client.send('DELETE', `/api/v1/agents/kagent/${name}`), 200);
      expectStatus('info', await client.send('GET', '/api/v1/info'), 200);
    }
  };
  const done = Promise.all(Array.from({ length: clients }, loop));
  return {
    stats,
    async stop() {
      running = false;
      await done;
      return stats;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(registry.mode === 'skip')('the chart registry failing under load', () => {
  let upstream: RegistryServer;
  let proxy: RegistryProxy;
  let served: ServedApp;
  let clock = Date.now();

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    upstream = await startRegistry();
    for (const [version, schema] of [['0.5.2', schemaWithoutToolset('0.5.2')], ['0.6.0', schemaWithToolset('0.6.0')]] as const) {
      await pushChart({ registryUrl: upstream.url, repository: REPO, tag: version, chart: { version, schema } });
    }
    proxy = await startRegistryProxy(upstream.url);
    proxy.mode = 'down';
    const chart = new RegistryChartSchemaSource({
      ociUrl: proxy.ociUrl(REPO), semver: 'x.x.x', refreshMs: REFRESH_MS, log: silentLogger(),
      now: () => clock, resolveTimeoutMs: 1_000, infoWaitMs: 3_000,
    });
    served = await startServedApp({ chart });
  });
  afterAll(async () => {
    await served?.close();
    await proxy?.close();
    await upstream?.close();
  });

  /** The chart block of get_info, over REST and over MCP (they must agree). */
  async function chartInfo(): Promise<Record<string, unknown>> {
    const rest = await served.client.send('GET', '/api/v1/info');
    expect(rest.status).toBe(200);
    const mcp = await served.client.callTool('get_info', {});
    expect(mcp.json?.result?.isError).toBeFalsy();
    expect(mcp.json.result.structuredContent.chart).toEqual(rest.json.chart);
    return rest.json.chart;
  }

  /** Put the registry in `mode`, let the resolver's clock pass `advanceMs`, and keep the load on for a while. */
  async function phase(mode: ProxyMode, advanceMs: number): Promise<void> {
    const before = proxy.seen[mode];
    proxy.mode = mode;
    clock += advanceMs;
    await sleep(B.registryPhaseMs);
    // Make sure the registry was asked in this mode (the load's requests trigger the read).
    for (let i = 0; i < 50 && proxy.seen[mode] === before; i++) await sleep(100);
    expect(proxy.seen[mode], `the resolver read the registry while it was ${mode}`).toBeGreaterThan(before);
  }

  it('keeps answering from the embedded schema, says so, and recovers by itself', async () => {
    const load = startLoad(served.client);
    try {
      // Down from the start: the embedded schema, and the reason.
      await phase('down', 0);
      let chart = await chartInfo();
      expect(chart).toMatchObject({ schemaSource: 'embedded', schemaVersion: '0.5.2', error: expect.stringMatching(DOWN) });
      expect(chart.latestVersion).toBeUndefined();

      const expected: Array<[ProxyMode, RegExp]> = [
        ['slow', /took longer than 1s/],
        ['garbage', /tags\/list.*answer is not JSON/],
        ['garbage-blobs', /blobs\/sha256:.*content digest sha256:\w+ does not match/],
      ];
      for (const [mode, error] of expected) {
        await phase(mode, RETRY_MS);
        chart = await chartInfo();
        expect(chart, mode).toMatchObject({ schemaSource: 'embedded', schemaVersion: '0.5.2', error: expect.stringMatching(error) });
      }
      expect([...load.stats.schemas]).toEqual(['0.5.2 (embedded)']);

      // Healthy again: the next retry reads it, without any restart.
      await phase('healthy', RETRY_MS);
      chart = await chartInfo();
      expect(chart).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', latestVersion: '0.6.0' });
      expect(chart.error).toBeUndefined();

      // A later outage keeps the last schema read from the registry, with the error.
      await phase('down', REFRESH_MS + 1_000);
      chart = await chartInfo();
      expect(chart).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', error: expect.stringMatching(DOWN) });

      await phase('healthy', RETRY_MS);
      chart = await chartInfo();
      expect(chart).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', latestVersion: '0.6.0' });
      expect(chart.error).toBeUndefined();
    } finally {
      const stats = await load.stop();
      expect(stats.failures.slice(0, 5), `${stats.failures.length} of ${stats.requests} requests failed`).toEqual([]);
      expect(stats.requests).toBeGreaterThan(0);
      expect(stats.schemas).toEqual(new Set(['0.5.2 (embedded)', '0.6.0 (registry)']));
    }
  });
});

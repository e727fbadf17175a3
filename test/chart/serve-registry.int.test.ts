// The service end to end with a real chart registry: `serve --agent-chart-oci-url
// oci://127.0.0.1:<port>/charts/agent` reports the registry as its schema source, the newest
// version in range as latestVersion, and goes back to the embedded schema (with the error)
// when the registry is gone. The Kubernetes API is a dead loopback port: /info does not need it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadPort } from '../support/start-serve.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schemaWithToolset, schemaWithoutToolset } from '../support/chart/chart-schemas.js';
import { pushChart } from '../support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../support/chart/registry-server.js';
import { parseConfig } from '../../src/config/index.js';
import type { Info } from '../../src/core/types.js';
import { silentLogger } from '../../src/log/logger.js';
import { runServe } from '../../src/serve.js';

const REPO = 'charts/agent';
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED serve-with-registry suite: ${registry.reason}`);

describe.skipIf(registry.mode === 'skip')('serve with the agent chart in a real registry', () => {
  let server: RegistryServer;
  let dir: string;
  let kubeconfig: string;
  let stop: (() => void) | undefined;
  let running: Promise<void> | undefined;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry();
    for (const [version, schema] of [
      ['0.5.2', schemaWithoutToolset('0.5.2')],
      ['0.6.0', schemaWithToolset('0.6.0')],
      ['0.7.0-rc.1', schemaWithToolset('0.7.0-rc.1')],
    ] as const) {
      await pushChart({ registryUrl: server.url, repository: REPO, tag: version, chart: { version, schema } });
    }
    dir = mkdtempSync(join(tmpdir(), 'serve-registry-test-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: dead',
      `clusters: [{name: dead, cluster: {server: "http://127.0.0.1:${await deadPort()}"}}]`,
      'users: [{name: u, user: {token: not-a-real-token}}]',
      'contexts: [{name: dead, context: {cluster: dead, user: u}}]',
    ].join('\n'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    stop?.();
    await running;
    stop = undefined;
    running = undefined;
  });

  async function serve(semver: string): Promise<string> {
    const parsed = parseConfig([
      'serve', '--listen=127.0.0.1:0', '--metrics-listen=', '--shutdown-delay=0s', `--kubeconfig=${kubeconfig}`,
      `--agent-chart-oci-url=${server.ociUrl(REPO)}`, `--agent-chart-semver=${semver}`,
    ], {});
    if (parsed.kind !== 'serve') throw new Error(JSON.stringify(parsed));
    const stopped = new Promise<void>((resolve) => { stop = resolve; });
    return new Promise((resolve, reject) => {
      running = runServe(parsed.config, silentLogger(), {
        stop: stopped,
        onListening: (main) => resolve(`http://127.0.0.1:${main.port}`),
      });
      running.catch(reject);
    });
  }

  const info = async (base: string): Promise<Info> => (await (await fetch(`${base}/api/v1/info`)).json()) as Info;

  it.each([
    ['0.x', '0.6.0'],
    ['0.5.x', '0.5.2'],
    ['>=0.6.0-0 <1.0.0-0', '0.7.0-rc.1'],
  ])('get_info with --agent-chart-semver=%s reports schemaSource registry and latestVersion %s', async (semver, version) => {
    const base = await serve(semver);
    const { chart } = await info(base);
    expect(chart).toMatchObject({
      ociUrl: server.ociUrl(REPO),
      semver,
      latestVersion: version,
      schemaVersion: version,
      schemaSource: 'registry',
    });
    expect(chart.error).toBeUndefined();
    expect(Date.parse(chart.resolvedAt ?? '')).not.toBeNaN();
  });

  it('reports the embedded schema and the error once the registry is gone', async () => {
    const gone = await startRegistry();
    const url = gone.ociUrl(REPO);
    await gone.close();
    const parsed = parseConfig(['serve', '--listen=127.0.0.1:0', '--metrics-listen=', '--shutdown-delay=0s', `--kubeconfig=${kubeconfig}`, `--agent-chart-oci-url=${url}`], {});
    if (parsed.kind !== 'serve') throw new Error(JSON.stringify(parsed));
    const stopped = new Promise<void>((resolve) => { stop = resolve; });
    const base = await new Promise<string>((resolve, reject) => {
      running = runServe(parsed.config, silentLogger(), { stop: stopped, onListening: (main) => resolve(`http://127.0.0.1:${main.port}`) });
      running.catch(reject);
    });
    const { chart } = await info(base);
    // The default range follows chart 2.x, whose embedded schema answers while the registry is gone.
    expect(chart).toMatchObject({ ociUrl: url, schemaSource: 'embedded', schemaVersion: '2.0.0' });
    expect(chart.error).toMatch(/ECONNREFUSED/);
    expect(chart.latestVersion).toBeUndefined();
  });
});

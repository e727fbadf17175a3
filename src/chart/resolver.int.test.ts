import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log/logger.js';
import { EMBEDDED_SCHEMA, EMBEDDED_SCHEMA_VERSION } from './embedded/embedded-schemas.js';
import { REGISTRY_UNAVAILABLE_MESSAGE, RegistryChartSchemaSource, type RegistryChartSchemaSourceOptions } from './resolver.js';
import { schemaWithToolset, schemaWithoutToolset } from '../../test/support/chart/chart-schemas.js';
import { pushChart } from '../../test/support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../../test/support/chart/registry-server.js';

const REPO = 'charts/agent';
const REFRESH = 600_000;
const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED chart resolver suites against a real registry: ${registry.reason}`);

/** A resolver with a settable clock, a log it records, and a fetch that records request paths. */
function harness(ociUrl: string, semver: string, options: Partial<RegistryChartSchemaSourceOptions> = {}) {
  const clock = { now: T0 };
  const logs: { level: string; msg: string; [key: string]: unknown }[] = [];
  const requests: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (line: string) => void logs.push(JSON.parse(line)) } });
  const recordingFetch: typeof fetch = (input, init) => {
    requests.push(new URL(input instanceof Request ? input.url : input).pathname);
    return fetch(input, init);
  };
  const source = new RegistryChartSchemaSource({
    ociUrl,
    semver,
    refreshMs: REFRESH,
    log,
    now: () => clock.now,
    fetch: recordingFetch,
    ...options,
  });
  const count = (part: string): number => requests.filter((path) => path.includes(part)).length;
  const warnings = (): string[] => logs.filter((l) => l.level === 'warn').map((l) => l.msg);
  return { source, clock, logs, requests, count, warnings };
}

describe.skipIf(registry.mode === 'skip')('RegistryChartSchemaSource against docker-registry', () => {
  let server: RegistryServer;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry();
    const push = (repository: string, tag: string, schema?: Record<string, unknown>, layerMediaType?: string) =>
      pushChart({ registryUrl: server.url, repository, tag, chart: { version: tag, schema }, layerMediaType });
    await push(REPO, '0.5.2', schemaWithoutToolset('0.5.2'));
    await push(REPO, '0.6.0', schemaWithToolset('0.6.0'));
    await push(REPO, '0.7.0-rc.1', schemaWithToolset('0.7.0-rc.1'));
    await pushChart({ registryUrl: server.url, repository: REPO, tag: 'artifacthub.io', chart: { version: '0.0.1', schema: {} } });
    await push('broken/no-schema/agent', '1.0.0');
    await push('broken/no-layer/agent', '1.0.0', {}, 'application/vnd.oci.image.layer.v1.tar+gzip');
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['x.x.x', '0.6.0'],
    ['0.x', '0.6.0'],
    ['0.5.x', '0.5.2'],
    ['>=0.5.0-0', '0.7.0-rc.1'],
    ['~0.6', '0.6.0'],
  ])('with range %s serves the registry schema of %s', async (semver, version) => {
    const { source } = harness(server.ociUrl(REPO), semver);
    const resolved = await source.schema();
    expect(resolved).toMatchObject({ version, source: 'registry' });
    expect(resolved.schema.title).toBe(`agent chart ${version} values (test registry)`);
    expect(await source.info()).toEqual({
      ociUrl: server.ociUrl(REPO),
      semver,
      latestVersion: version,
      schemaVersion: version,
      schemaSource: 'registry',
      resolvedAt: '2025-06-01T12:00:00.000Z',
    });
  });

  it('serves the cached schema while it is younger than refresh, then only lists tags again', async () => {
    const h = harness(server.ociUrl(REPO), 'x.x.x');
    const first = await h.source.schema();
    expect([h.count('/tags/list'), h.count('/manifests/'), h.count('/blobs/')]).toEqual([1, 1, 1]);
    h.clock.now += REFRESH - 1;
    expect(await h.source.schema()).toBe(first);
    expect(h.requests).toHaveLength(3);
    h.clock.now += 1;
    const second = await h.source.schema();
    expect([h.count('/tags/list'), h.count('/manifests/'), h.count('/blobs/')]).toEqual([2, 1, 1]);
    expect(second).toBe(first);
    expect(second.schema).toBe(first.schema);
    expect((await h.source.info()).resolvedAt).toBe(new Date(h.clock.now).toISOString());
  });

  it('downloads again only when the newest version in range changed, and logs the change', async () => {
    const repo = 'moving/agent';
    await pushChart({ registryUrl: server.url, repository: repo, tag: '1.0.0', chart: { version: '1.0.0', schema: schemaWithToolset('1.0.0') } });
    const h = harness(server.ociUrl(repo), '1.x');
    expect((await h.source.schema()).version).toBe('1.0.0');
    await pushChart({ registryUrl: server.url, repository: repo, tag: '1.1.0', chart: { version: '1.1.0', schema: schemaWithToolset('1.1.0') } });
    h.clock.now += REFRESH;
    const resolved = await h.source.schema();
    expect(resolved).toMatchObject({ version: '1.1.0', source: 'registry' });
    expect(resolved.schema.title).toBe('agent chart 1.1.0 values (test registry)');
    expect(h.count('/blobs/')).toBe(2);
    const resolvedLogs = h.logs.filter((l) => l.msg === 'agent chart resolved');
    expect(resolvedLogs.map((l) => [l.version, l.previous])).toEqual([
      ['1.0.0', undefined],
      ['1.1.0', '1.0.0'],
    ]);
  });

  it('runs one resolve at a time; a caller arriving meanwhile gets the current schema at once', async () => {
    const h = harness(server.ociUrl(REPO), 'x.x.x');
    const [first, second] = await Promise.all([h.source.schema(), h.source.schema()]);
    expect(first).toMatchObject({ version: '0.6.0', source: 'registry' });
    expect(second).toMatchObject({ version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' });
    expect(second.schema).toBe(EMBEDDED_SCHEMA);
    expect(h.count('/tags/list')).toBe(1);
  });

  it('lets info() wait for a read in flight, so it reports its outcome', async () => {
    const h = harness(server.ociUrl(REPO), 'x.x.x');
    const [schema, info] = await Promise.all([h.source.schema(), h.source.info()]);
    expect(schema).toMatchObject({ version: '0.6.0', source: 'registry' });
    expect(info).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', latestVersion: '0.6.0' });
    expect(h.count('/tags/list')).toBe(1);
  });

  it.each([
    ['broken/no-schema/agent', 'x.x.x', 'agent/values.schema.json not found in chart archive'],
    ['broken/no-layer/agent', 'x.x.x', 'broken/no-layer/agent:1.0.0 has no Helm chart layer (application/vnd.oci.image.layer.v1.tar+gzip)'],
    [REPO, '9.x', 'no chart version satisfies "9.x" among 4 tags'],
    ['nothing/here', 'x.x.x', 'NAME_UNKNOWN'],
  ])('never throws: %s with %s falls back to the embedded schema and reports %s', async (repo, semver, error) => {
    const h = harness(server.ociUrl(repo), semver);
    expect(await h.source.schema()).toMatchObject({ version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' });
    const info = await h.source.info();
    expect(info).toMatchObject({ schemaVersion: EMBEDDED_SCHEMA_VERSION, schemaSource: 'embedded' });
    expect(info.error).toContain(error);
    expect(info.latestVersion).toBeUndefined();
    expect(info.resolvedAt).toBeUndefined();
    expect(h.warnings()).toEqual([REGISTRY_UNAVAILABLE_MESSAGE]);
  });
});

describe.skipIf(registry.mode === 'skip')('RegistryChartSchemaSource through a registry outage', () => {
  let server: RegistryServer;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry();
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('falls back to the embedded schema while the registry is down, retries once a minute, and returns to it', async () => {
    await server.stop();
    const h = harness(server.ociUrl(REPO), 'x.x.x');
    try {
      expect(await h.source.schema()).toMatchObject({ version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' });
      const down = await h.source.info();
      expect(down).toMatchObject({ schemaSource: 'embedded', schemaVersion: EMBEDDED_SCHEMA_VERSION });
      expect(down.error).toMatch(new RegExp(`^GET http://${server.host}/v2/charts/agent/tags/list\\?n=1000: connect ECONNREFUSED`));
      expect(down.latestVersion).toBeUndefined();

      // Requests inside the minute do not touch the registry, and the warning is not repeated.
      const attempts = h.count('/tags/list');
      h.clock.now += 59_999;
      for (let i = 0; i < 5; i++) await h.source.schema();
      expect(h.count('/tags/list')).toBe(attempts);
      h.clock.now += 1;
      await h.source.schema();
      expect(h.count('/tags/list')).toBe(attempts + 1);
      expect(h.warnings()).toEqual([REGISTRY_UNAVAILABLE_MESSAGE]);

      await server.start();
      h.clock.now += 60_000;
      expect(await h.source.schema()).toMatchObject({ version: '0.6.0', source: 'registry' });
      const up = await h.source.info();
      expect(up).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', latestVersion: '0.6.0' });
      expect(up.error).toBeUndefined();
      expect(h.logs.filter((l) => l.msg === 'agent chart resolved')).toHaveLength(1);
    } finally {
      await server.start().catch(() => undefined);
    }
  });

  it('keeps serving the last registry schema through an outage, with the error set, and warns once per outage', async () => {
    const h = harness(server.ociUrl(REPO), 'x.x.x');
    const before = await h.source.schema();
    expect(before).toMatchObject({ version: '0.6.0', source: 'registry' });
    await server.stop();
    try {
      for (let i = 0; i < 3; i++) {
        h.clock.now += REFRESH;
        expect(await h.source.schema()).toBe(before);
      }
      const info = await h.source.info();
      expect(info).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0' });
      expect(info.error).toMatch(/ECONNREFUSED/);
      expect(info.latestVersion).toBeUndefined();
      expect(h.warnings()).toHaveLength(1);

      await server.start();
      h.clock.now += 60_000;
      expect(await h.source.schema()).toBe(before);
      expect((await h.source.info()).error).toBeUndefined();

      await server.stop();
      h.clock.now += REFRESH;
      await h.source.schema();
      expect(h.warnings()).toHaveLength(2);
    } finally {
      await server.start().catch(() => undefined);
    }
  });
});

describe.skipIf(registry.mode === 'skip')('RegistryChartSchemaSource against a bearer-token registry', () => {
  let server: RegistryServer;

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry({ auth: 'token' });
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('resolves through the token endpoint and fetches the token once across refreshes', async () => {
    const tokens = server.tokens!;
    tokens.requests.length = 0;
    const h = harness(server.ociUrl(REPO), 'x.x.x', { refreshMs: 60_000 });
    expect(await h.source.schema()).toMatchObject({ version: '0.6.0', source: 'registry' });
    h.clock.now += 60_000;
    await h.source.schema();
    h.clock.now += 60_000;
    await h.source.schema();
    expect(h.count('/tags/list')).toBeGreaterThanOrEqual(3);
    expect(tokens.requests).toEqual([{ service: tokens.service, scope: `repository:${REPO}:pull`, method: 'GET', authorization: null }]);
    expect(await h.source.info()).toMatchObject({ schemaSource: 'registry', latestVersion: '0.6.0' });
  });
});

describe('RegistryChartSchemaSource against a registry that never answers', () => {
  let hanging: Server;
  let host: string;
  beforeAll(async () => {
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  it('bounds the whole resolve and falls back with the reason', async () => {
    const h = harness(`oci://${host}/charts/agent`, 'x.x.x', { resolveTimeoutMs: 150 });
    expect(await h.source.schema()).toMatchObject({ version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' });
    expect((await h.source.info()).error).toBe('resolving the agent chart took longer than 0.15s');
    expect(h.warnings()).toEqual([REGISTRY_UNAVAILABLE_MESSAGE]);
  });

  it('answers info() with the current state when a read in flight takes longer than its wait', async () => {
    const h = harness(`oci://${host}/charts/agent`, 'x.x.x', { infoWaitMs: 50 });
    const info = await h.source.info();
    expect(info).toEqual({ ociUrl: `oci://${host}/charts/agent`, semver: 'x.x.x', schemaVersion: EMBEDDED_SCHEMA_VERSION, schemaSource: 'embedded' });
    h.source.close();
  });

  it('stops a running resolve when closed', async () => {
    const h = harness(`oci://${host}/charts/agent`, 'x.x.x');
    const pending = h.source.schema();
    h.source.close();
    expect(await pending).toMatchObject({ version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' });
    expect((await h.source.info()).error).toMatch(/: aborted$/);
  });
});

describe('RegistryChartSchemaSource configuration', () => {
  const log = createLogger({ level: 'silent' });
  it.each([
    [{ ociUrl: 'https://x/y' }, 'chart URL "https://x/y" must look like oci://<registry>/<repository>'],
    [{ semver: 'banana' }, 'semver range "banana" is not valid'],
    [{ refreshMs: 0 }, 'chart refresh must be positive'],
  ])('refuses %j at construction', (override, message) => {
    const options = { ociUrl: 'oci://127.0.0.1:1/charts/agent', semver: 'x.x.x', refreshMs: REFRESH, log, ...override };
    expect(() => new RegistryChartSchemaSource(options)).toThrow(message);
  });

  it('serves the embedded schema without reading once closed', async () => {
    const h = harness('oci://127.0.0.1:1/charts/agent', 'x.x.x');
    h.source.close();
    expect(await h.source.schema()).toMatchObject({ version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' });
    expect(await h.source.info()).toEqual({
      ociUrl: 'oci://127.0.0.1:1/charts/agent',
      semver: 'x.x.x',
      schemaVersion: EMBEDDED_SCHEMA_VERSION,
      schemaSource: 'embedded',
    });
    expect(h.requests).toEqual([]);
  });
});

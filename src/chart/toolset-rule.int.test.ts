import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valuesViolations } from '../core/values-schema.js';
import { silentLogger } from '../log/logger.js';
import { RegistryChartSchemaSource } from './resolver.js';
import { schemaWithToolset, schemaWithoutToolset } from '../../test/support/chart/chart-schemas.js';
import { pushChart } from '../../test/support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../../test/support/chart/registry-server.js';

const REPO = 'charts/agent';
const registry = registryTestMode();
if (registry.mode === 'skip') console.warn(`SKIPPED toolset-rule suite against a real registry: ${registry.reason}`);

const base = { agent: { name: 'sre-agent', runtime: 'python' }, modelConfig: { name: 'default-model-config' } };

/** Validation as the service does it: the resolver's schema, then valuesViolations. */
async function violations(source: RegistryChartSchemaSource, values: Record<string, unknown>): Promise<string[]> {
  const { schema, version, source: from } = await source.schema();
  return valuesViolations(schema, values, { version, source: from });
}

describe.skipIf(registry.mode === 'skip')('the toolset rule against chart versions read from a real registry', () => {
  let server: RegistryServer;
  const sourceFor = (semver: string) =>
    new RegistryChartSchemaSource({ ociUrl: server.ociUrl(REPO), semver, refreshMs: 600_000, log: silentLogger() });

  beforeAll(async () => {
    if (registry.mode === 'fail') throw new Error(`CI needs the real registry: ${registry.reason}`);
    server = await startRegistry();
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.5.2', chart: { version: '0.5.2', schema: schemaWithoutToolset('0.5.2') } });
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.6.0', chart: { version: '0.6.0', schema: schemaWithToolset('0.6.0') } });
    await pushChart({ registryUrl: server.url, repository: REPO, tag: '0.7.0-rc.1', chart: { version: '0.7.0-rc.1', schema: schemaWithToolset('0.7.0-rc.1') } });
    await pushChart({ registryUrl: server.url, repository: REPO, tag: 'latest', chart: { version: '0.0.1', schema: {} } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('0.5.x picks 0.5.2, whose schema does not declare toolset: the key is left out of its check', async () => {
    const source = sourceFor('0.5.x');
    expect(await source.info()).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.5.2', latestVersion: '0.5.2' });
    expect(await violations(source, { ...base, toolset: ['preset:read-only'] })).toEqual([]);
    expect(await violations(source, { ...base, toolset: 'not even a list' })).toEqual([]);
    // The schema is strict about other unknown keys, so the drop is what lets toolset through.
    expect(await violations(source, { ...base, bogus: true })).toEqual([expect.stringMatching(/^\(root\): .*bogus/)]);
  });

  it('0.x picks 0.6.0, whose schema declares toolset: the key is validated', async () => {
    const source = sourceFor('0.x');
    expect(await source.info()).toMatchObject({ schemaSource: 'registry', schemaVersion: '0.6.0', latestVersion: '0.6.0' });
    expect(await violations(source, { ...base, toolset: ['preset:read-only', 'workflow:incident-triage'] })).toEqual([]);
    expect(await violations(source, { ...base, toolset: 'preset:full' })).toEqual([expect.stringMatching(/^\/toolset: .*array/)]);
    expect(await violations(source, { ...base, toolset: [] })).toEqual([expect.stringMatching(/^\/toolset: /)]);
  });

  it('a range naming a pre-release picks 0.7.0-rc.1 and validates toolset too', async () => {
    const source = sourceFor('>=0.6.0-0');
    expect(await source.info()).toMatchObject({ schemaVersion: '0.7.0-rc.1', latestVersion: '0.7.0-rc.1' });
    expect(await violations(source, { ...base, toolset: [42] })).toEqual([expect.stringMatching(/^\/toolset\/0: .*string/)]);
  });

  it('with the registry down, the embedded 0.5.2 schema still answers and leaves toolset out', async () => {
    const down = await startRegistry();
    const url = down.ociUrl(REPO);
    await down.close();
    const source = new RegistryChartSchemaSource({ ociUrl: url, semver: '0.x', refreshMs: 600_000, log: silentLogger() });
    expect(await violations(source, { ...base, toolset: ['preset:full'] })).toEqual([]);
    expect(await violations(source, { ...base, agent: { name: 'Not-A-Name' } })).toEqual([
      expect.stringMatching(/^\/agent\/name: .*pattern/),
    ]);
    expect(await source.info()).toMatchObject({ schemaSource: 'embedded', schemaVersion: '0.5.2', error: expect.stringMatching(/ECONNREFUSED/) });
  });
});

/**
 * The sandbox judges values on its own. With agent-manager's values check taken out of
 * the way through its port (a chart schema source whose schema allows everything), values
 * the agent chart's real schema refuses are written; the sandbox's helm-controller, which
 * checks them against its own copy of the chart's values.schema.json with its own code,
 * then fails the release with Helm's schema error. So an end-to-end "Flux refuses the
 * values" test can disagree with our validator, and would catch a bug in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartSchemaSource } from '../../src/service/ports.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { eventually } from '../support/eventually.js';

/** The test seam: a chart whose values.schema.json constrains nothing. */
const permissiveChart: ChartSchemaSource = {
  schema: async () => ({ version: '0.0.0-permissive', source: 'embedded', schema: {} }),
  info: async () => ({ ociUrl: 'oci://example.invalid/agent', semver: 'x.x.x', schemaVersion: '0.0.0-permissive', schemaSource: 'embedded' }),
};

let f: ServiceFixture;

beforeAll(async () => {
  f = await startServiceFixture({ chart: permissiveChart, sandbox: { controllers: true, reconcileDelayMs: 10 } });
});
afterAll(async () => {
  await f?.close();
});

type Condition = { type: string; status: string; reason: string; message: string };

describe('the sandbox, with our own values check bypassed', () => {
  it('fails the release with Helm\'s schema error for values the chart schema refuses', async () => {
    // agent.displayName is at most 63 characters in the chart's schema; nothing else of ours looks at its length.
    await f.service.createAgent(f.ctx(), { name: 'too-long', modelConfig: 'default-model-config', toolset: ['preset:read-only'], displayName: 'x'.repeat(70) });
    const ready = await eventually(() => {
      const hr = f.sandbox.store.find('helmreleases', 'kagent', 'too-long') as { status?: { conditions?: Condition[] } } | undefined;
      const condition = hr?.status?.conditions?.find((c) => c.type === 'Ready');
      return condition?.status === 'False' ? condition : undefined;
    }, 20_000, 'the release failing');
    expect(ready.reason).toBe('InstallFailed');
    expect(ready.message).toContain("values don't meet the specifications of the schema(s) in the following chart(s):\nagent:\n");
    expect(ready.message).toContain("- at '/agent/displayName': length must be <= 63, but got 70");
    // Helm recorded no release, so the chart rendered nothing.
    expect(f.sandbox.store.list('agents', { namespace: 'kagent' }).items.map((a) => (a.metadata as { name?: string }).name)).not.toContain('too-long');
  });
});

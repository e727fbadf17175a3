import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from '../../test/support/service/fixture.js';
import { meterRoundTrips, type RoundTripMeter } from '../../test/support/service/round-trips.js';
import { seedAgentCr, seedModelConfig, seedRelease, seedVerifier, seedWorkload } from '../../test/support/service/seed-agents.js';

// What a caller waits for is the number of SEQUENTIAL round trips to the API server.
// These claims are the targets we hold the service to (the Go service makes about three
// for list plus one per foreign release, and about eleven for create).
let f: ServiceFixture;
let meter: RoundTripMeter;

beforeAll(async () => {
  f = await startServiceFixture();
  seedVerifier(f.sandbox);
  seedWorkload(f.sandbox, { name: 'verifier', pods: [{ name: 'verifier-abc', ready: true }] });
  seedRelease(f.sandbox, { name: 'pending' });
  seedRelease(f.sandbox, { name: 'remote', namespace: 'tenant', ready: true });
  seedAgentCr(f.sandbox, { name: 'remote', release: { name: 'remote', namespace: 'tenant' } });
  seedModelConfig(f.sandbox, 'tenant', 'default-model-config');
  meter = meterRoundTrips(f.sandbox);
});
afterAll(async () => {
  meter.stop();
  await f.close();
});
beforeEach(() => meter.reset());

describe('sequential API round trips per operation', () => {
  it('listAgents takes at most two, even with a release in another namespace', async () => {
    await f.service.listAgents(f.ctx());
    expect(meter.depth()).toBeLessThanOrEqual(2);
    // Four lists (the Agents of both chart lines, releases, sources), one get of the foreign release.
    expect(meter.requests).toBe(5);
  });

  it('getAgentStatus takes one', async () => {
    await f.service.getAgentStatus(f.ctx(), { name: 'verifier' });
    expect(meter.depth()).toBe(1);
    expect(meter.requests).toBe(6); // the Agent of each chart line, the release, Deployment, pods, events
  });

  // Recording a revision is two rounds after the write: the create (beside the prune of what was read,
  // and beside create's status read), then the history listed again so a concurrent write's late record
  // is pruned too (revision-store.ts).
  it('createAgent takes at most five including the embedded status, four when the source exists', async () => {
    await f.service.createAgent(f.ctx(), { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    expect(meter.depth()).toBe(4);
    meter.reset();
    await f.service.createAgent(f.ctx(), { namespace: 'tenant', name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    expect(meter.depth()).toBeLessThanOrEqual(5);
  });

  // An update before revisions: one read round (Agent, release, schema) and the release write.
  // Recording adds two: the ControllerRevision create, concurrent with the prune, and the history listed again.
  it('updateAgent takes four: the read round (with the history), the release write, the revision record, the re-list', async () => {
    await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'measured' });
    expect(meter.depth()).toBe(4);
    // get the Agent of each chart line, the HelmRelease and the shared source (its chart line), list
    // ControllerRevisions; update; create; list
    expect(meter.requests).toBe(8);
  });

  it('rollbackAgent takes four too: the revision is found in the read round the update makes anyway', async () => {
    await f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 1 });
    expect(meter.depth()).toBe(4);
    // The update's eight, the ModelConfigs of both kagent groups a rollback always checks, and the Harnesses.
    expect(meter.requests).toBe(11);
  });

  it('getAgent takes one when the release is named after the agent', async () => {
    await f.service.getAgent(f.ctx(), { name: 'verifier' });
    expect(meter.depth()).toBe(1);
  });
});

describe('listAgents at scale', () => {
  it('answers 2,000 agents in one namespace with four list requests and no per-agent request', async () => {
    for (let i = 0; i < 2000; i++) {
      const name = `agent-${String(i).padStart(4, '0')}`;
      seedRelease(f.sandbox, { namespace: 'tenant', name, ready: true });
      if (i % 2 === 0) seedAgentCr(f.sandbox, { namespace: 'tenant', name, release: { name, namespace: 'tenant' }, ready: true });
    }
    meter.stop();
    f.sandbox.counters.reset();
    const { agents } = await f.service.listAgents(f.ctx(), { namespace: 'tenant' });
    expect(agents.length).toBeGreaterThanOrEqual(2000);
    expect(f.sandbox.counters.snapshot().byVerb).toEqual({ list: 4 });
    // Summaries come from the same four lists: no request a summary row does not need.
    f.sandbox.counters.reset();
    const { agents: rows } = await f.service.listAgents(f.ctx(), { namespace: 'tenant', details: false });
    expect(rows).toHaveLength(agents.length);
    expect(f.sandbox.counters.snapshot().byVerb).toEqual({ list: 4 });
    meter = meterRoundTrips(f.sandbox);
  });
});

import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_LABEL, buildRevision } from '../../core/revisions/revision-record.js';
import { createLogger } from '../../log/logger.js';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';
import { meterRoundTrips } from '../../../test/support/service/round-trips.js';
import { seedRelease } from '../../../test/support/service/seed-agents.js';

const lines: Record<string, unknown>[] = [];
const log = createLogger({
  level: 'debug', pretty: false,
  destination: new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  }),
});

let f: ServiceFixture;
const spec = (name: string) => ({ name, modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
const stored = (name: string, namespace = 'kagent') =>
  f.sandbox.store.list('controllerrevisions', { namespace, labelSelector: `${AGENT_LABEL}=${name}` }).items
    .map((o) => o.revision as number).sort((a, b) => a - b);
const values = (name: string) => (f.sandbox.store.get('helmreleases', 'kagent', name).spec as { values: Record<string, any> }).values;

/** A revision written straight into the cluster (a recorded past the current service would refuse). */
function seedRevision(name: string, revision: number, recordValues: Record<string, unknown>) {
  const release = f.sandbox.store.get('helmreleases', 'kagent', name);
  const meta = release.metadata as { uid: string };
  const owner = { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name, namespace: 'kagent', uid: meta.uid };
  f.sandbox.store.create('controllerrevisions',
    buildRevision(name, revision, owner, { operation: 'update', changed: [], values: recordValues }), { fieldManager: 'test' });
}

beforeAll(async () => {
  f = await startServiceFixture({ log });
});
afterAll(() => f.close());
beforeEach(() => {
  f.sandbox.faults.clear();
  lines.length = 0;
});

describe('the revision history limit', () => {
  it('keeps the newest 10 revisions after a create and 12 updates', async () => {
    await f.service.createAgent(f.ctx(), spec('busy'));
    for (let i = 1; i <= 11; i++) {
      const result = await f.service.updateAgent(f.ctx(), { name: 'busy', description: `change ${i}` });
      expect(result.revision).toBe(i + 1);
      expect(result.notes).toBeUndefined();
    }
    // At the limit the prune of what the write read runs beside the record, and the history listed
    // again after it finds nothing more to delete: two sequential requests more than the write.
    const meter = meterRoundTrips(f.sandbox);
    const last = await f.service.updateAgent(f.ctx(), { name: 'busy', description: 'change 12' });
    meter.stop();
    expect(last.revision).toBe(13);
    expect(meter.depth()).toBe(4);
    expect(f.sandbox.counters.count({ verb: 'delete', resource: 'controllerrevisions.apps' })).toBe(3);
    expect(stored('busy')).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const { revisions } = await f.service.listAgentRevisions(f.ctx(), { name: 'busy' });
    expect(revisions.map((r) => r.revision)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
    expect(revisions[0]!.current).toBe(true);
  });

  it('prunes to the limit when a write\'s record lands after the writes that came after it pruned', async () => {
    await f.service.createAgent(f.ctx(), spec('crowd'));
    for (let i = 1; i <= 9; i++) await f.service.updateAgent(f.ctx(), { name: 'crowd', description: `change ${i}` });
    expect(stored('crowd')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The first write's revision create is held until three later writes have recorded and pruned.
    let caught: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { caught = resolve; });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => { release = resolve; });
    const stop = f.sandbox.hooks.use(async (ctx, next) => {
      if (ctx.info.verb === 'create' && ctx.info.resource === 'controllerrevisions') {
        stop();
        caught();
        await released;
      }
      await next();
    });
    const slow = f.service.updateAgent(f.ctx(), { name: 'crowd', description: 'slow' });
    await held;
    for (const change of ['fast 1', 'fast 2', 'fast 3']) {
      expect((await f.service.updateAgent(f.ctx(), { name: 'crowd', description: change })).notes).toBeUndefined();
    }
    release();
    const result = await slow;
    expect(result.revision).toBe(11);
    expect(result.notes).toBeUndefined();
    expect(stored('crowd')).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  });

  it('keeps the limit when ten writes race on one agent', async () => {
    await f.service.createAgent(f.ctx(), spec('stampede'));
    for (let i = 1; i <= 9; i++) await f.service.updateAgent(f.ctx(), { name: 'stampede', description: `change ${i}` });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      f.service.updateAgent(f.ctx(), { name: 'stampede', description: `racer ${i}` })));
    expect(results.map((r) => r.revision).sort((a, b) => a! - b!)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(stored('stampede')).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('keeps none with a limit of 0, and deletes what an earlier limit kept', async () => {
    const none = await startServiceFixture({ settings: { revisionHistoryLimit: 0 } });
    try {
      await none.service.createAgent(none.ctx(), spec('forgetful'));
      const release = none.sandbox.store.get('helmreleases', 'kagent', 'forgetful');
      const owner = { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: 'forgetful', namespace: 'kagent', uid: String((release.metadata as { uid: string }).uid) };
      none.sandbox.store.create('controllerrevisions', buildRevision('forgetful', 1, owner, { operation: 'create', changed: [], values: {} }), { fieldManager: 'test' });
      const result = await none.service.updateAgent(none.ctx(), { name: 'forgetful', description: 'x' });
      expect(result.revision).toBeUndefined();
      expect(none.sandbox.store.list('controllerrevisions', { namespace: 'kagent' }).items).toEqual([]);
      const { revisions } = await none.service.listAgentRevisions(none.ctx(), { name: 'forgetful' });
      expect(revisions).toEqual([{ revision: null, changed: ['agent.description', 'agent.name', 'modelConfig.name', 'toolset'], current: true }]);
    } finally {
      await none.close();
    }
  });
});

describe('a revision that cannot be recorded', () => {
  it('leaves the update applied, answers a note and logs a warning', async () => {
    await f.service.createAgent(f.ctx(), spec('fragile'));
    f.sandbox.faults.failNext({ verb: 'create', resource: 'controllerrevisions.apps', code: 500, message: 'etcdserver: request timed out' });
    const result = await f.service.updateAgent(f.ctx(), { name: 'fragile', description: 'applied anyway' });
    expect(values('fragile').agent.description).toBe('applied anyway');
    expect(result.changed).toEqual(['agent.description']);
    expect(result.revision).toBeUndefined();
    expect(result.notes).toEqual([expect.stringMatching(/^revision 2 of agent kagent\/fragile was not recorded \(the change itself was applied\): .*etcdserver: request timed out/)]);
    expect(lines.find((l) => l.msg === 'revision not recorded')).toMatchObject({ level: 'warn', agent: 'fragile', revision: 2 });
    expect(stored('fragile')).toEqual([1]);
    // The live release is not what its newest revision recorded: the history says so, and the next write goes on at 3.
    const { revisions } = await f.service.listAgentRevisions(f.ctx(), { name: 'fragile' });
    expect(revisions[0]).toEqual({ revision: null, changed: ['agent.description'], current: true });
    expect((await f.service.updateAgent(f.ctx(), { name: 'fragile', description: 'next' })).revision).toBe(3);
  });

  it('leaves the create applied when the history cannot even be listed', async () => {
    f.sandbox.faults.failNext({ verb: 'list', resource: 'controllerrevisions.apps', code: 503 });
    f.sandbox.faults.failNext({ verb: 'create', resource: 'controllerrevisions.apps', code: 403, message: 'not allowed' });
    const result = await f.service.createAgent(f.ctx(), spec('unrecorded'));
    expect(result.created.helmRelease).toBe(true);
    expect(result.revision).toBeUndefined();
    expect(result.notes).toHaveLength(2);
    expect(result.notes![0]).toMatch(/revision 1 of agent kagent\/unrecorded was not recorded/);
    expect(result.notes![1]).toMatch(/could not be read/);
  });
});

describe('rollbackAgent', () => {
  beforeAll(async () => {
    await f.service.createAgent(f.ctx(), { ...spec('rb'), description: 'one', runtime: 'python' });
    await f.service.updateAgent(f.ctx(), { name: 'rb', description: 'two', runtime: '', labels: { team: 'x' } });
  });

  it('puts the revision\'s curated fields back, clearing what it did not have, and keeps other keys', async () => {
    const release = structuredClone(f.sandbox.store.get('helmreleases', 'kagent', 'rb')) as Record<string, any>;
    release.spec.values.replicas = 3; // set by hand: not a curated field
    f.sandbox.store.update('helmreleases', release, { fieldManager: 'kubectl-edit' });
    const result = await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 1 });
    expect(result).toMatchObject({ revision: 3, rolledBackTo: 1, changed: ['agent.description', 'agent.runtime', 'labels.team'] });
    expect(values('rb')).toEqual({
      agent: { name: 'rb', description: 'one', runtime: 'python' }, modelConfig: { name: 'default-model-config' },
      toolset: ['preset:read-only'], replicas: 3,
    });
  });

  it('takes dryRun as update does: everything checked, nothing stored and no revision recorded', async () => {
    const before = values('rb');
    const kept = stored('rb');
    const result = await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 2, dryRun: true });
    expect(result).toMatchObject({ dryRun: true, rolledBackTo: 2, changed: ['agent.description', 'agent.runtime', 'labels.team'] });
    expect(result.revision).toBeUndefined();
    expect(values('rb')).toEqual(before);
    expect(stored('rb')).toEqual(kept);
  });

  it('takes the resourceVersion precondition as update does: a release that moved is refused', async () => {
    const now = String((f.sandbox.store.get('helmreleases', 'kagent', 'rb').metadata as { resourceVersion: string }).resourceVersion);
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 2, resourceVersion: '1' })).rejects.toMatchObject({
      message: expect.stringContaining(`changed since version 1 was read (now ${now})`),
    });
    const result = await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 2, resourceVersion: now });
    expect(result).toMatchObject({ revision: 4, rolledBackTo: 2 });
    // Back to revision 1, as the tests below expect.
    await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 1 });
  });

  it('answers 404 for a revision that is not kept', async () => {
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 42 })).rejects.toMatchObject({
      code: 'not_found', message: expect.stringContaining('revision 42 of agent kagent/rb'),
    });
  });

  it('refuses a revision the chart schema in use now refuses, with the violations, and writes nothing', async () => {
    seedRevision('rb', 90, { agent: { name: 'rb', runtime: 'rust' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] });
    const before = values('rb');
    const err = await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 90 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('/agent/runtime') });
    expect(values('rb')).toEqual(before);
  });

  it('refuses a revision whose ModelConfig is gone', async () => {
    seedRevision('rb', 91, { agent: { name: 'rb' }, modelConfig: { name: 'retired' }, toolset: ['preset:none'] });
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 91 })).rejects.toMatchObject({
      code: 'invalid_request', message: expect.stringContaining('modelConfig "retired" does not exist'),
    });
  });

  it.each([['applied', false], ['dry run', true]])(
    'keeps the live toolset when the revision had none (a release from before toolsets), %s', async (_case, dryRun) => {
      seedRevision('rb', 92, { agent: { name: 'rb', description: 'from before toolsets' }, modelConfig: { name: 'default-model-config' } });
      const live = values('rb').toolset as string[];
      expect(live).toEqual(['preset:read-only']);
      const result = await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 92, dryRun });
      expect(result.changed).not.toContain('toolset');
      expect(result.changed).toContain('agent.description');
      expect(result.after.toolset).toEqual(live);
      expect(result.notes).toContain('revision 92 has no toolset; the current toolset [preset:read-only] is kept (a toolset is never removed)');
      expect(result.agent).not.toHaveProperty('implicitFullAccess');
      expect(values('rb').toolset).toEqual(live);
      f.sandbox.store.delete('controllerrevisions', 'kagent', 'rb-92');
      if (!dryRun) await f.service.rollbackAgent(f.ctx(), { name: 'rb', revision: 1 });
    },
  );

  it.each([['applied', false], ['dry run', true]])(
    'says so when the revision\'s toolset reaches more than the current one, naming both (%s)', async (_case, dryRun) => {
      const name = `widened-${String(dryRun)}`;
      await f.service.createAgent(f.ctx(), { ...spec(name), toolset: ['preset:full'] });
      await f.service.updateAgent(f.ctx(), { name, toolset: ['preset:none'] });
      const result = await f.service.rollbackAgent(f.ctx(), { name, revision: 1, dryRun });
      expect(result.changed).toContain('toolset');
      expect(result.notes).toContain(
        'revision 1\'s toolset reaches more than the current one: from ["preset:none"] to ["preset:full"], every tool ' +
        'the gateway exposes',
      );
      // Back the other way access narrows: nothing to say about it.
      const narrowing = await f.service.rollbackAgent(f.ctx(), { name, revision: 2, dryRun });
      expect(narrowing.notes ?? []).not.toContainEqual(expect.stringContaining('reaches more'));
    },
  );

  it('keeps the ownership guards of update: a GitOps-owned release needs force', async () => {
    seedRelease(f.sandbox, { name: 'in-git', ready: true, labels: { 'kustomize.toolkit.fluxcd.io/name': 'agents' } });
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'in-git', revision: 1 })).rejects.toMatchObject({ code: 'conflict' });
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'in-git', revision: 1, force: true })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('reading revisions', () => {
  it('answers 404 for an agent that does not exist and an empty list for a release without history', async () => {
    await expect(f.service.listAgentRevisions(f.ctx(), { name: 'ghost' })).rejects.toMatchObject({ code: 'not_found' });
    seedRelease(f.sandbox, { name: 'legacy', ready: true });
    const { revisions } = await f.service.listAgentRevisions(f.ctx(), { name: 'legacy' });
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ revision: null, current: true });
  });

  it('does not count a deleted release\'s leftovers as the new release\'s history, nor reuse their numbers', async () => {
    await f.service.createAgent(f.ctx(), spec('reborn'));
    // The release goes, its revision stays until the garbage collector (not running here) takes it.
    f.sandbox.store.delete('helmreleases', 'kagent', 'reborn');
    const result = await f.service.createAgent(f.ctx(), spec('reborn'));
    expect(result.revision).toBe(2);
    const { revisions } = await f.service.listAgentRevisions(f.ctx(), { name: 'reborn' });
    expect(revisions.map((r) => [r.revision, r.operation])).toEqual([[2, 'create']]);
  });
});

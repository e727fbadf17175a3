import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_LABEL, buildRevision } from '../../core/revisions/revision-record.js';
import { createLogger } from '../../log/logger.js';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';
import { MAX_REVISION_BYTES } from './revision-store.js';

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
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a refusal'); }, (e: Error & { code?: string; status?: number }) => e);
const uidOf = (name: string) => (f.sandbox.store.get('helmreleases', 'kagent', name).metadata as { uid: string }).uid;
const owner = (name: string) => ({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name, namespace: 'kagent', uid: uidOf(name) });

/** A ControllerRevision someone else wrote into the namespace, labelled with the agent's name. */
function forge(object: Record<string, unknown>) {
  f.sandbox.store.create('controllerrevisions', { apiVersion: 'apps/v1', kind: 'ControllerRevision', ...object }, { fieldManager: 'forger' });
}

beforeAll(async () => {
  f = await startServiceFixture({ log });
});
afterAll(() => f.close());
beforeEach(() => {
  lines.length = 0;
});

describe('a stray ControllerRevision with the agent label breaks nothing', () => {
  it('ignores one without an owner and with revision 9007199254740991: later writes record, the history and rollback work', async () => {
    await f.service.createAgent(f.ctx(), spec('target'));
    forge({
      metadata: { name: 'target-evil', namespace: 'kagent', labels: { [AGENT_LABEL]: 'target' } },
      revision: 9007199254740991, data: { operation: 'update', changed: [], values: { agent: { name: 'target' } } },
    });
    forge({
      metadata: { name: 'target-2', namespace: 'kagent', labels: { [AGENT_LABEL]: 'target' } },
      revision: 1, data: { operation: 'update', values: {} },
    });
    const updated = await f.service.updateAgent(f.ctx(), { name: 'target', description: 'after the forgery' });
    // 2 is taken by the stray's name, so the write records 3; no "already exists".
    expect(updated.revision).toBe(3);
    expect(updated.notes).toBeUndefined();
    const { revisions } = await f.service.listAgentRevisions(f.ctx(), { name: 'target' });
    expect(revisions.map((r) => [r.revision, r.operation, r.current])).toEqual([[3, 'update', true], [1, 'create', undefined]]);
    const rolled = await f.service.rollbackAgent(f.ctx(), { name: 'target', revision: 1 });
    expect(rolled).toMatchObject({ revision: 4, rolledBackTo: 1, changed: ['agent.description'] });
    // Each stray is reported once, however often the history is read.
    await f.service.listAgentRevisions(f.ctx(), { name: 'target' });
    const reports = lines.filter((l) => String(l.msg).startsWith('ControllerRevision with the agent label ignored'));
    expect(reports.map((l) => l.controllerRevision).sort()).toEqual(['target-2', 'target-evil']);
    expect(reports.map((l) => l.level)).toEqual(['warn', 'warn']);
  });
});

describe('a malformed revision of the agent is listed with its error and refused with a 422', () => {
  it('lists it, refuses get_agent_revision and rollback_agent naming what is wrong, and leaves the others usable', async () => {
    await f.service.createAgent(f.ctx(), spec('forged'));
    forge({
      metadata: { name: 'forged-2', namespace: 'kagent', labels: { [AGENT_LABEL]: 'forged' }, ownerReferences: [owner('forged')] },
      revision: 2, data: { operation: 'update', changed: [], spec: { modelConfig: 7 }, values: { agent: { name: 'forged' } } },
    });
    const { revisions } = await f.service.listAgentRevisions(f.ctx(), { name: 'forged' });
    expect(revisions).toEqual([
      expect.objectContaining({
        revision: 2, operation: 'update',
        error: { code: 'invalid_request', message: 'invalid request: the revision is malformed: data.spec.modelConfig: expected string, received number' },
      }),
      expect.objectContaining({ revision: 1, operation: 'create', current: true }),
    ]);
    const refusal = 'invalid request: revision 2 of agent kagent/forged is malformed (data.spec.modelConfig: expected string, received number), '
      + 'so it cannot be shown or applied again; pick another revision (list_agent_revisions), or delete ControllerRevision kagent/forged-2';
    for (const promise of [
      f.service.getAgentRevision(f.ctx(), { name: 'forged', revision: 2 }),
      f.service.rollbackAgent(f.ctx(), { name: 'forged', revision: 2 }),
      f.service.rollbackAgent(f.ctx(), { name: 'forged', revision: 2, dryRun: true }),
    ]) {
      const err = await failure(promise);
      expect({ code: err.code, status: err.status, message: err.message }).toEqual({ code: 'invalid_request', status: 422, message: refusal });
    }
    expect((await f.service.getAgentRevision(f.ctx(), { name: 'forged', revision: 1 })).spec).toMatchObject({ modelConfig: 'default-model-config' });
    const updated = await f.service.updateAgent(f.ctx(), { name: 'forged', description: 'd' });
    expect(updated.revision).toBe(3);
  });

  it('reads a revision in the earlier format (the spec copied beside the values) and rolls back to it', async () => {
    await f.service.createAgent(f.ctx(), spec('legacy-format'));
    const values = { agent: { name: 'legacy-format', description: 'old' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] };
    const object = buildRevision('legacy-format', 2, owner('legacy-format'), { operation: 'update', changed: ['agent.description'], values });
    object.data.spec = { description: 'old', modelConfig: 'default-model-config', toolset: ['preset:none'] };
    f.sandbox.store.create('controllerrevisions', object, { fieldManager: 'test' });
    expect((await f.service.getAgentRevision(f.ctx(), { name: 'legacy-format', revision: 2 })).spec)
      .toEqual({ description: 'old', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    const rolled = await f.service.rollbackAgent(f.ctx(), { name: 'legacy-format', revision: 2 });
    expect(rolled.after).toMatchObject({ agent: { description: 'old' }, toolset: ['preset:none'] });
  });
});

describe('a revision stores each value once', () => {
  const stored = (name: string, revision: number) =>
    f.sandbox.store.get('controllerrevisions', 'kagent', `${name}-${revision}`) as unknown as { data: { spec: unknown } };

  it('records 700 KB of values in a revision of about 700 KB, its spec referring to the values', async () => {
    await f.service.createAgent(f.ctx(), spec('verbose'));
    const updated = await f.service.updateAgent(f.ctx(), { name: 'verbose', systemMessage: 'x'.repeat(700_000) });
    expect(updated.revision).toBe(2);
    const object = stored('verbose', 2);
    expect(object.data.spec).toEqual({ $ref: 'values' });
    expect(Buffer.byteLength(JSON.stringify(object))).toBeLessThan(720_000);
    const detail = await f.service.getAgentRevision(f.ctx(), { name: 'verbose', revision: 2 });
    expect(detail.spec.systemMessage).toHaveLength(700_000);
  });

  it('does not record one over 1 MiB, and the write\'s notes say so', async () => {
    const updated = await f.service.updateAgent(f.ctx(), { name: 'verbose', systemMessage: 'y'.repeat(MAX_REVISION_BYTES) });
    expect(updated.revision).toBeUndefined();
    expect(updated.notes).toEqual([
      expect.stringMatching(/^revision 3 of agent kagent\/verbose was not recorded \(the change itself was applied\): it would be \d+ bytes, more than the 1 MiB a revision may hold$/),
    ]);
    expect(f.sandbox.store.list('controllerrevisions', { namespace: 'kagent', labelSelector: `${AGENT_LABEL}=verbose` }).items).toHaveLength(2);
    // The next write still numbers past the one the release carries.
    expect((await f.service.updateAgent(f.ctx(), { name: 'verbose', systemMessage: 'short' })).revision).toBe(4);
  });
});

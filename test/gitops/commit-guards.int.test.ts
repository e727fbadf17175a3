/**
 * What commit mode refuses before anything reaches GitHub or the cluster: a bare Agent CR
 * (no HelmRelease, so nothing to change in git) even with force, a delete whose
 * precondition names a version the release has moved past, and a create of an agent the
 * cluster already runs. Each refusal leaves git and the cluster as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgentCr } from '../support/service/seed-agents.js';
import { startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
beforeAll(async () => {
  w = await startCommitWorld('app');
  seedAgentCr(w.f.sandbox, { name: 'hand-made' });
});
afterAll(() => w.close());

async function refused(promise: Promise<unknown>): Promise<{ status?: number; message: string }> {
  const err = await promise.then(() => { throw new Error('expected a refusal'); }, (e: Error & { status?: number }) => e);
  return { status: err.status, message: err.message };
}

describe('commit mode refuses before writing anywhere', () => {
  it('a delete of a bare Agent CR, even with force, and leaves the Agent on the cluster', async () => {
    const calls = w.world.github.calls.length;
    const err = await refused(w.f.service.deleteAgent(w.f.ctx(), { name: 'hand-made', mode: 'commit', force: true }));
    expect(err).toEqual({
      status: 409,
      message: 'conflict: Agent kagent/hand-made is a bare CR with no HelmRelease behind it, so commit mode has no release to remove in git; delete it where it is defined, or with force in apply mode',
    });
    expect(w.f.sandbox.store.get('agents', 'kagent', 'hand-made')).toBeDefined();
    expect(w.world.github.calls.length).toBe(calls);
  });

  it('an update or rollback of a bare Agent CR, with the apply-mode 409', async () => {
    const update = await refused(w.f.service.updateAgent(w.f.ctx(), { name: 'hand-made', description: 'x', mode: 'commit' }));
    expect(update.status).toBe(409);
    expect(update.message).toMatch(/^conflict: Agent kagent\/hand-made is a bare CR with no HelmRelease behind it/);
    const rollback = await refused(w.f.service.rollbackAgent(w.f.ctx(), { name: 'hand-made', revision: 1, mode: 'commit' }));
    expect(rollback.status).toBe(409);
  });

  it('a delete whose resourceVersion the release has moved past (412), before GitHub is asked', async () => {
    const calls = w.world.github.calls.length;
    const err = await refused(w.f.service.deleteAgent(w.f.ctx(), { name: 'sre', mode: 'commit', resourceVersion: '1' }));
    expect(err.status).toBe(412);
    expect(w.world.github.calls.length).toBe(calls);
  });

  it('a create of an agent the cluster already runs, even when git does not define it', async () => {
    const calls = w.world.github.calls.length;
    const err = await refused(w.f.service.createAgent(w.f.ctx(), {
      name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit', repository: 'acme/fleet', path: 'clusters/new',
    }));
    expect(err.status).toBe(409);
    expect(w.world.github.calls.length).toBe(calls);
  });
});

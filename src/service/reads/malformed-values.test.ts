import { beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../core/errors.js';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedRelease } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;
const writes = () => f.kube.counters.count({ verb: 'create' }) + f.kube.counters.count({ verb: 'update' })
  + f.kube.counters.count({ verb: 'patch' });

beforeAll(() => {
  f = startFakeServiceFixture();
  seedRelease(f.kube, { name: 'fine', ready: true, values: { agent: { name: 'fine' }, toolset: ['preset:read-only'] } });
  seedRelease(f.kube, { name: 'stringy', ready: true, values: 'str' as never });
  seedRelease(f.kube, { name: 'listy', ready: true, values: [1, 2, 3] as never });
});

const refusal = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (err) {
    if (isAppError(err)) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('no refusal');
};

describe('a HelmRelease whose spec.values are no object', () => {
  it('degrades its own list item with error and a warning, never reading as no toolset (full access)', async () => {
    const { agents, warnings } = await f.service.listAgents(f.ctx());
    const stringy = agents.find((a) => a.name === 'stringy')!;
    expect(stringy).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringContaining('spec.values is a string, not an object') },
      toolsetProblem: 'spec.values is a string, not an object of Helm values, so the toolset cannot be read',
    });
    expect(stringy).not.toHaveProperty('implicitFullAccess');
    expect(stringy).not.toHaveProperty('values');
    expect(agents.find((a) => a.name === 'listy')?.error?.message).toContain('spec.values is a list');
    expect(agents.find((a) => a.name === 'fine')).not.toHaveProperty('error');
    expect(warnings).toEqual([
      expect.stringMatching(/^agent kagent\/listy: the HelmRelease kagent\/listy is malformed: spec\.values is a list/),
      expect.stringMatching(/^agent kagent\/stringy: the HelmRelease kagent\/stringy is malformed/),
    ]);
    const summaries = await f.service.listAgents(f.ctx(), { details: false });
    expect(summaries.agents.find((a) => a.name === 'stringy')).not.toHaveProperty('implicitFullAccess');
    expect(summaries.warnings).toEqual(warnings);
  });

  it('refuses an update, a dry run and a validation with 409 naming the fix, and writes nothing', async () => {
    const before = writes();
    for (const name of ['stringy', 'listy']) {
      const expected = { status: 409, message: expect.stringContaining(`kubectl edit helmrelease -n kagent ${name}`) };
      expect(await refusal(() => f.service.updateAgent(f.ctx(), { name, description: 'x' }))).toEqual(expected);
      expect(await refusal(() => f.service.updateAgent(f.ctx(), { name, description: 'x', dryRun: true })))
        .toEqual(expected);
      expect(await refusal(() => f.service.validateAgent(f.ctx(), { mode: 'update', update: { name, description: 'y' } })))
        .toEqual(expected);
    }
    expect(writes()).toBe(before);
  });
});

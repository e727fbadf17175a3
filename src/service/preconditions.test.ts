import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from './testing/fixture.js';
import { seedVerifier } from './testing/seed-agents.js';

let f: ServiceFixture;
const releaseOf = (name: string) => f.sandbox.store.get('helmreleases', 'kagent', name) as {
  metadata: { resourceVersion: string }; spec: { values: { agent: Record<string, unknown> } };
};
/** A colleague's edit straight through the API (here: the store), bumping the release's resourceVersion. */
function colleagueEdits(name: string, description: string): string {
  const release = structuredClone(releaseOf(name));
  release.spec.values.agent.description = description;
  return (f.sandbox.store.update('helmreleases', release as never) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}
/** Runs `edit` once, just before the next request of `verb` on helmreleases reaches the API server. */
function editBeforeNext(verb: string, edit: () => void): void {
  const stop = f.sandbox.hooks.use(async (ctx, next) => {
    if (ctx.info.verb === verb && ctx.info.resource === 'helmreleases') {
      stop();
      edit();
    }
    await next();
  });
}

beforeAll(async () => {
  f = await startServiceFixture();
  seedVerifier(f.sandbox);
  for (const name of ['sre', 'ops', 'gone', 'racer']) {
    await f.service.createAgent(f.ctx(), { name, modelConfig: 'default-model-config', toolset: ['preset:none'] });
  }
});
afterAll(() => f.close());

describe('the agent version', () => {
  it('is its HelmRelease resourceVersion, on get, list and every write result', async () => {
    const rv = releaseOf('sre').metadata.resourceVersion;
    expect((await f.service.getAgent(f.ctx(), { name: 'sre' })).resourceVersion).toBe(rv);
    const listed = (await f.service.listAgents(f.ctx())).agents.find((a) => a.name === 'sre');
    expect(listed?.resourceVersion).toBe(rv);
    const updated = await f.service.updateAgent(f.ctx(), { name: 'sre', displayName: 'SRE' });
    expect(updated.agent.resourceVersion).toBe(releaseOf('sre').metadata.resourceVersion);
    expect(updated.agent.resourceVersion).not.toBe(rv);
  });
});

describe('an update with a precondition', () => {
  it('is refused, naming both versions, when the release changed since; nothing is written', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'sre' })).resourceVersion!;
    const now = colleagueEdits('sre', 'colleague');
    const err = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'mine', resourceVersion: read }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'conflict', status: 412,
      message: `conflict: agent kagent/sre changed since version ${read} was read (now ${now}); read it again`,
    });
    expect(releaseOf('sre').spec.values.agent.description).toBe('colleague');
  });

  it('succeeds at the current version', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'sre' })).resourceVersion!;
    const result = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'mine', resourceVersion: read });
    expect(result.changed).toEqual(['agent.description']);
    expect(releaseOf('sre').spec.values.agent.description).toBe('mine');
  });

  it('is refused without a retry when a change lands between its read and its write', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'racer' })).resourceVersion!;
    let now = '';
    editBeforeNext('update', () => {
      now = colleagueEdits('racer', 'colleague');
    });
    const err = await f.service.updateAgent(f.ctx(), { name: 'racer', description: 'mine', resourceVersion: read }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 412, message: `conflict: agent kagent/racer changed since version ${read} was read (now ${now}); read it again` });
    expect(releaseOf('racer').spec.values.agent.description).toBe('colleague');
  });

  it('that names no version is a 400 before anything is read', async () => {
    await expect(f.service.updateAgent(f.ctx(), { name: 'sre', description: 'x', resourceVersion: ' ' })).rejects.toMatchObject({
      code: 'invalid_request', message: expect.stringContaining('resourceVersion is empty'),
    });
  });

  it('without one, still merges over a concurrent change (the retry stays)', async () => {
    editBeforeNext('update', () => colleagueEdits('racer', 'colleague again'));
    const result = await f.service.updateAgent(f.ctx(), { name: 'racer', displayName: 'Racer' });
    expect(result.changed).toEqual(['agent.displayName']);
    expect(releaseOf('racer').spec.values.agent).toMatchObject({ description: 'colleague again', displayName: 'Racer' });
  });
});

describe('a delete with a precondition', () => {
  it('is refused when the release changed since, and keeps it', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'ops' })).resourceVersion!;
    const now = colleagueEdits('ops', 'colleague');
    await expect(f.service.deleteAgent(f.ctx(), { name: 'ops', resourceVersion: read })).rejects.toMatchObject({
      status: 412, message: `conflict: agent kagent/ops changed since version ${read} was read (now ${now}); read it again`,
    });
    expect(f.sandbox.store.find('helmreleases', 'kagent', 'ops')).toBeDefined();
  });

  it('is refused by the API server itself when a change lands after our read', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'ops' })).resourceVersion!;
    let now = '';
    editBeforeNext('delete', () => {
      now = colleagueEdits('ops', 'late');
    });
    const err = await f.service.deleteAgent(f.ctx(), { name: 'ops', resourceVersion: read }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 412, message: `conflict: agent kagent/ops changed since version ${read} was read (now ${now}); read it again`,
    });
    expect(f.sandbox.store.find('helmreleases', 'kagent', 'ops')).toBeDefined();
  });

  it('deletes that version, and reports it', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'gone' })).resourceVersion!;
    const result = await f.service.deleteAgent(f.ctx(), { name: 'gone', resourceVersion: read });
    expect(result).toMatchObject({ helmReleaseDeleted: true, resourceVersion: read });
    expect(f.sandbox.store.find('helmreleases', 'kagent', 'gone')).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namespacesOf, startNamespacedFixture, type NamespacedFixture } from '../../../test/support/service/shared-fixture.js';
import { seedVerifier } from '../../../test/support/service/seed-agents.js';

// This file's own namespaces on the worker's shared sandbox.
const { home } = namespacesOf('svc-preconditions');
let f: NamespacedFixture;
const releaseOf = (name: string) => f.sandbox.store.get('helmreleases', home, name) as {
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
  f = await startNamespacedFixture('svc-preconditions');
  seedVerifier(f.sandbox, home);
  for (const name of ['sre', 'ops', 'gone', 'racer', 'versioned-delete']) {
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
      message: `conflict: agent ${home}/sre changed since version ${read} was read (now ${now}); read it again`,
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
    expect(err).toMatchObject({ status: 412, message: `conflict: agent ${home}/racer changed since version ${read} was read (now ${now}); read it again` });
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
      status: 412, message: `conflict: agent ${home}/ops changed since version ${read} was read (now ${now}); read it again`,
    });
    expect(f.sandbox.store.find('helmreleases', home, 'ops')).toBeDefined();
  });

  it('is refused by the API server itself when a change lands after our read', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'ops' })).resourceVersion!;
    let now = '';
    editBeforeNext('delete', () => {
      now = colleagueEdits('ops', 'late');
    });
    const err = await f.service.deleteAgent(f.ctx(), { name: 'ops', resourceVersion: read }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 412, message: `conflict: agent ${home}/ops changed since version ${read} was read (now ${now}); read it again`,
    });
    expect(f.sandbox.store.find('helmreleases', home, 'ops')).toBeDefined();
  });

  it('deletes that version, and reports it', async () => {
    const read = (await f.service.getAgent(f.ctx(), { name: 'gone' })).resourceVersion!;
    const result = await f.service.deleteAgent(f.ctx(), { name: 'gone', resourceVersion: read });
    expect(result).toMatchObject({ helmReleaseDeleted: true, resourceVersion: read });
    expect(f.sandbox.store.find('helmreleases', home, 'gone')).toBeUndefined();
  });
});

describe('a write with a version precondition', () => {
  /** A controller's status write, as helm-controller makes several per reconcile. */
  const statusWrite = (name: string) => {
    const release = structuredClone(f.sandbox.store.get('helmreleases', home, name)) as Record<string, any>;
    release.status = {
      ...release.status, observedGeneration: release.metadata.generation, lastHandledReconcileAt: String(Date.now()),
    };
    f.sandbox.store.updateStatus('helmreleases', release as never);
  };

  it('is on get, list and every write result, and a controller\'s status write leaves it as it is', async () => {
    const read = await f.service.getAgent(f.ctx(), { name: 'ops' });
    expect(read.version).toMatch(/^\d+-[0-9a-f]{8}$/);
    expect((await f.service.listAgents(f.ctx())).agents.find((a) => a.name === 'ops')?.version).toBe(read.version);
    statusWrite('ops');
    const after = await f.service.getAgent(f.ctx(), { name: 'ops' });
    expect(after.resourceVersion).not.toBe(read.resourceVersion);
    expect(after.version).toBe(read.version);
    const updated = await f.service.updateAgent(f.ctx(), { name: 'ops', description: 'on version', version: read.version });
    expect(updated.agent.version).not.toBe(read.version);
    expect(updated.generation).toBe(Number(updated.agent.version!.split('-')[0]));
  });

  it('is refused (412) after a colleague changed the spec, and nothing is written', async () => {
    const read = await f.service.getAgent(f.ctx(), { name: 'ops' });
    colleagueEdits('ops', 'colleague');
    await expect(f.service.updateAgent(f.ctx(), { name: 'ops', description: 'mine', version: read.version })).rejects.toMatchObject({
      code: 'conflict', status: 412,
    });
    expect(releaseOf('ops').spec.values.agent.description).toBe('colleague');
  });

  it('writes at the resourceVersion it checked: a colleague\'s change between the check and the write fails the re-check (412), never a lost update', async () => {
    const read = await f.service.getAgent(f.ctx(), { name: 'ops' });
    editBeforeNext('update', () => colleagueEdits('ops', 'slipped in'));
    await expect(f.service.updateAgent(f.ctx(), { name: 'ops', description: 'mine', version: read.version })).rejects.toMatchObject({
      code: 'conflict', status: 412,
    });
    expect(releaseOf('ops').spec.values.agent.description).toBe('slipped in');
  });

  it('takes a controller\'s status write between the check and the write for what it is: the write goes through at the new resourceVersion', async () => {
    const read = await f.service.getAgent(f.ctx(), { name: 'ops' });
    editBeforeNext('update', () => statusWrite('ops'));
    const updated = await f.service.updateAgent(f.ctx(), { name: 'ops', description: 'past a status write', version: read.version });
    expect(updated.agent.description).toBe('past a status write');
    expect(releaseOf('ops').spec.values.agent.description).toBe('past a status write');
  });

  it('deletes only at that version: a stale one is a 412 and the agent stays', async () => {
    const read = await f.service.getAgent(f.ctx(), { name: 'versioned-delete' });
    await expect(f.service.deleteAgent(f.ctx(), { name: 'versioned-delete', version: '1-00000000' })).rejects.toMatchObject({ status: 412 });
    statusWrite('versioned-delete');
    const deleted = await f.service.deleteAgent(f.ctx(), { name: 'versioned-delete', version: read.version });
    expect(deleted.helmReleaseDeleted).toBe(true);
  });

  it('refuses an empty version before anything is read', async () => {
    await expect(f.service.updateAgent(f.ctx(), { name: 'ops', description: 'x', version: ' ' })).rejects.toThrow(
      'invalid request: version is empty: pass the version a read or a write reported (get_agent), or leave it out');
  });
});

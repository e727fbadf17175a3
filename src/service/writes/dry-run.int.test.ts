import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alwaysAllow, type Authorizer } from '@agent-manager/kube-sandbox';
import { namespacesOf, startNamespacedFixture, type NamespacedFixture } from '../../../test/support/service/shared-fixture.js';
import { seedRelease, seedVerifier } from '../../../test/support/service/seed-agents.js';

// This file's own namespaces on the worker's shared sandbox.
const { home } = namespacesOf('svc-dry-run');
let f: NamespacedFixture;
/** The dryRun query of every write request the sandbox received. */
let writes: Array<{ verb: string; resource: string; dryRun: string | null }>;
let stopRecording: () => void;

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const exists = (resource: string, name: string, ns = home) => f.sandbox.store.find(resource, ns, name) !== undefined;

/** An authorizer that denies one verb on helmreleases and allows everything else. */
const denying = (verb: string): Authorizer => ({
  authorize: (a) => ({ allowed: !(a.verb === verb && a.resource === 'helmreleases') }),
});

beforeAll(async () => {
  f = await startNamespacedFixture('svc-dry-run');
  seedVerifier(f.sandbox, home);
  seedRelease(f.sandbox, { namespace: home, name: 'paused', suspend: true, ready: true });
  await f.service.createAgent(f.ctx(), { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] });
});
afterAll(() => f.close());
beforeEach(() => {
  writes = [];
  stopRecording = f.sandbox.hooks.use(async (ctx, next) => {
    if (WRITE_VERBS.has(ctx.info.verb)) {
      writes.push({ verb: ctx.info.verb, resource: ctx.info.resource, dryRun: new URL(ctx.req.url ?? '', 'https://x').searchParams.get('dryRun') });
    }
    await next();
  });
  f.sandbox.counters.reset();
});
afterEach(() => {
  stopRecording();
  f.sandbox.authorizer = alwaysAllow;
});

/** Every write the API server received was a dry run, and the store is where it was. */
function expectNothingWritten(revisionBefore: number, expectedWrites: number) {
  expect(writes).toHaveLength(expectedWrites);
  expect(writes.every((w) => w.dryRun === 'All')).toBe(true);
  const counted = [...WRITE_VERBS].reduce((n, verb) => n + f.sandbox.counters.count({ verb }), 0);
  expect(counted).toBe(expectedWrites);
  expect(f.sandbox.store.revision).toBe(revisionBefore);
}

describe('a dry run', () => {
  it('of a create sends the source and the release with dryRun=All, stores nothing and says what it would create', async () => {
    const before = f.sandbox.store.revision;
    const result = await f.service.createAgent(f.ctx(), {
      name: 'draft', modelConfig: 'default-model-config', toolset: ['preset:read-only'], dryRun: true,
    });
    expect(result).toMatchObject({ dryRun: true, created: { ociRepository: false, helmRelease: true }, agent: { name: 'draft', namespace: home } });
    expect(result.status).toBeUndefined();
    expect(result.manifests.helmRelease).toContain('name: draft');
    expectNothingWritten(before, 1);
    expect(exists('helmreleases', 'draft')).toBe(false);
  });

  it('of a create in a namespace without the shared source would create it too', async () => {
    const source = f.sandbox.store.get('ocirepositories', home, 'agent');
    f.sandbox.store.delete('ocirepositories', home, 'agent');
    try {
      const before = f.sandbox.store.revision;
      const result = await f.service.createAgent(f.ctx(), {
        name: 'draft', modelConfig: 'default-model-config', toolset: ['preset:none'], dryRun: true,
      });
      expect(result.created).toEqual({ ociRepository: true, helmRelease: true });
      expectNothingWritten(before, 2);
      expect(exists('ocirepositories', 'agent')).toBe(false);
    } finally {
      const { metadata, spec } = source as {
        metadata: { name: string; namespace: string; labels?: Record<string, string> };
        spec: unknown;
      };
      f.sandbox.store.create('ocirepositories', { apiVersion: source.apiVersion, kind: source.kind, metadata: { name: metadata.name, namespace: metadata.namespace, labels: metadata.labels }, spec } as never);
    }
  });

  it('of a create is refused by what the API server refuses (RBAC), and still writes nothing', async () => {
    f.sandbox.authorizer = denying('create');
    const before = f.sandbox.store.revision;
    const err = await f.service.createAgent(f.ctx(), {
      name: 'denied', modelConfig: 'default-model-config', toolset: ['preset:none'], dryRun: true,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringContaining('cannot create resource "helmreleases"') });
    expectNothingWritten(before, 1);
  });

  it('of a create runs our own checks first: a refusal there sends nothing', async () => {
    const err = await f.service.createAgent(f.ctx(), { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'], dryRun: true })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'conflict', message: expect.stringContaining('already exists') });
    expect(writes).toEqual([]);
  });

  it('of an update sends the PUT with dryRun=All and reports the change it would make', async () => {
    const before = f.sandbox.store.revision;
    const read = await f.service.getAgent(f.ctx(), { name: 'sre' });
    const result = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'would change', dryRun: true });
    expect(result).toMatchObject({ dryRun: true, changed: ['agent.description'], after: { agent: { description: 'would change' } } });
    expect(result.agent.resourceVersion).toBe(read.resourceVersion);
    expectNothingWritten(before, 1);
    expect((await f.service.getAgent(f.ctx(), { name: 'sre' })).description).toBeUndefined();
  });

  it('of an update and of a rollback answers the version read, which a real write can then name', async () => {
    const read = await f.service.getAgent(f.ctx(), { name: 'sre' });
    const update = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'would change', dryRun: true });
    expect(update.agent.version).toBe(read.version);
    const rollback = await f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 1, dryRun: true });
    expect(rollback.agent.version).toBe(read.version);
    const real = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'changed', version: update.agent.version });
    expect(real.agent.description).toBe('changed');
    expect(real.agent.version).not.toBe(read.version);
  });

  it('of an update is refused by what the API server refuses (RBAC)', async () => {
    f.sandbox.authorizer = denying('update');
    const before = f.sandbox.store.revision;
    const err = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'x', dryRun: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'forbidden' });
    expectNothingWritten(before, 1);
  });

  it('of a delete reports what would be deleted and kept, and deletes nothing', async () => {
    const before = f.sandbox.store.revision;
    const result = await f.service.deleteAgent(f.ctx(), { name: 'sre', dryRun: true });
    expect(result).toMatchObject({
      dryRun: true, helmReleaseDeleted: true, agentDeleted: false, ociRepositoryDeleted: false,
      ociRepositoryKept: 'still referenced by 2 other HelmRelease(s): paused, verifier',
    });
    expectNothingWritten(before, 1);
    expect(exists('helmreleases', 'sre')).toBe(true);
  });

  it('of a forced delete of a suspended release would delete the release and the Agent, checked by the API server', async () => {
    f.sandbox.authorizer = denying('delete');
    const before = f.sandbox.store.revision;
    const err = await f.service.deleteAgent(f.ctx(), { name: 'paused', force: true, dryRun: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'forbidden', message: expect.stringContaining('cannot delete resource "helmreleases"') });
    expectNothingWritten(before, 1);
    expect(exists('helmreleases', 'paused')).toBe(true);
  });
});

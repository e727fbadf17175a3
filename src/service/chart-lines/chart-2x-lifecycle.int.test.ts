/**
 * Agents of chart 2.x end to end on a sandbox with its controllers and the muster double: the values a create
 * writes (and the sandbox's own copy of the chart judges), the Agent rendered on its Harness, waits that answer
 * ready only once the release and the Agent observed the change, a missing Harness failing on ResolvedRefs, a
 * Harness change recorded and rolled back, and the claude-Harness guards as the caller, failing closed. The same
 * operations in the 0.x namespace compose 0.x values. Every wait is on watches, never a sleep.
 */
import { startMuster, type Muster } from '@agent-manager/kube-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkNote } from '../../core/guards/system-prompt.js';
import { MusterToolsetResolver } from '../../muster/muster-toolset-resolver.js';
import { ManagedNamespaces } from '../namespaces.js';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';

const COMMIT = 'c'.repeat(40);
const DIGEST = `sha256:${'d'.repeat(64)}`;
const ORIGINS = ['https://github.com'];
type Json = Record<string, unknown>;

let f: ServiceFixture;
let muster: Muster;
const ctx = () => f.ctx({
  caller: { subject: 'jane', email: 'jane@example.com', groups: [], source: 'sso' }, token: 'jane-token',
});
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('not refused'); }, (e: Error) => e.message);
const values = (namespace: string, name: string) =>
  (f.sandbox.store.get('helmreleases', namespace, name) as { spec: { values: Json } }).spec.values;

beforeAll(async () => {
  muster = await startMuster({ tokens: { 'jane-token': 'jane@example.com' } });
  f = await startServiceFixture({
    sandbox: { controllers: true, reconcileDelayMs: 20 },
    toolsets: new MusterToolsetResolver({ fetch, version: 'test' }),
    settings: {
      namespaces: new ManagedNamespaces('kagent', ['agents']),
      line2: { harnessName: 'kagent', musterUrl: muster.url },
      claudeGuard: { harnessEgress: { claude: ORIGINS }, musterUrl: muster.url, oauth: true },
    },
  });
});
afterAll(async () => {
  await f?.close();
  await muster?.stop();
});

describe('an agent of chart 2.x', () => {
  it('is written with exactly the 2.x values, rendered on its Harness, and ready once both observed it', async () => {
    const created = await f.service.createAgent(ctx(), {
      name: 'helper', namespace: 'agents', modelConfig: 'default-model-config', toolset: ['preset:read-only'],
      skills: { gitRefs: [{ url: 'https://github.com/o/skills', path: 'k8s', commit: COMMIT }],
        refs: [`registry.example.io/skills/runbooks@${DIGEST}`] },
      plugins: [{ git: { url: 'https://github.com/o/bundle', commit: COMMIT }, skills: ['triage'] }],
      wait: 60,
    });
    expect(values('agents', 'helper')).toEqual({
      agent: { name: 'helper', harness: 'kagent' }, modelConfig: { name: 'default-model-config' },
      skills: [{ name: 'k8s', git: { url: 'https://github.com/o/skills', commit: COMMIT }, path: 'k8s' },
        { name: 'runbooks', oci: `registry.example.io/skills/runbooks@${DIGEST}` }],
      plugins: [{ git: { url: 'https://github.com/o/bundle', commit: COMMIT }, skills: ['triage'] }],
      toolset: ['preset:read-only'], muster: { url: muster.url },
    });
    expect(created.status).toMatchObject({ verdict: 'ready', summary: expect.stringMatching(/^Agent is Ready on Harness kagent/) });
    const agent = f.sandbox.store.get('agents.api.kagent.dev', 'agents', 'helper') as { spec: Json };
    expect(agent.spec.harnessRef).toEqual({ name: 'kagent' });
    const read = await f.service.getAgent(ctx(), { name: 'helper', namespace: 'agents' });
    expect(read).toMatchObject({ exists: true, chartLine: '2.x', harness: 'kagent', ready: true,
      status: { ready: true, resolvedRefs: true } });
  });

  it('moves to another Harness as a revision, waits for it, and rolls back', async () => {
    await f.service.createAgent(ctx(), { name: 'mover', namespace: 'agents', modelConfig: 'default-model-config',
      toolset: ['preset:none'], wait: 60 });
    const moved = await f.service.updateAgent(ctx(), { name: 'mover', namespace: 'agents', harness: 'codexless',
    }).catch((e: Error) => e.message);
    expect(moved).toContain('harness "codexless" does not exist in namespace agents; valid: claude, kagent');
    const guarded = await f.service.updateAgent(ctx(), { name: 'mover', namespace: 'agents', harness: 'claude',
      toolset: ['preset:read-only'], wait: 60 });
    expect(guarded).toMatchObject({ revision: 2, status: { verdict: 'ready' } });
    const revision = await f.service.getAgentRevision(ctx(), { name: 'mover', namespace: 'agents', revision: 2 });
    expect(revision.guard).toMatchObject({ harness: 'claude', caller: 'jane@example.com' });
    const back = await f.service.rollbackAgent(ctx(), { name: 'mover', namespace: 'agents', revision: 1, wait: 60 });
    expect(back).toMatchObject({ rolledBackTo: 1, status: { verdict: 'ready' } });
    expect((values('agents', 'mover').agent as Json).harness).toBe('kagent');
  });

  it('fails on ResolvedRefs once its Harness is gone', async () => {
    await f.service.createAgent(ctx(), { name: 'orphan', namespace: 'agents', modelConfig: 'default-model-config',
      toolset: ['preset:none'], wait: 60 });
    f.sandbox.store.delete('harnesses.api.kagent.dev', 'agents', 'kagent');
    const status = await f.service.waitForAgent(ctx(), { name: 'orphan', namespace: 'agents', timeoutSeconds: 30 });
    expect(status).toMatchObject({ verdict: 'failed', summary: expect.stringMatching(/ResolvedRefs is False/) });
  });

  it('lists the Harnesses of the namespace', async () => {
    expect((await f.service.listHarnesses(ctx(), { namespace: 'agents' })).harnesses.map((h) => h.name))
      .toEqual(expect.arrayContaining(['claude']));
  });
});

describe('the claude-Harness guards', () => {
  const claude = (name: string, over: Json = {}) => f.service.createAgent(ctx(), {
    name, namespace: 'agents', modelConfig: 'default-model-config', harness: 'claude', systemMessage: 'Review.',
    toolset: ['preset:read-only'], ...over,
  });

  it('accept a read-only toolset, writing the network note, and answer the tools on validate', async () => {
    await claude('reviewer');
    expect((values('agents', 'reviewer').agent as Json).systemMessage).toBe(`Review.\n\n${networkNote(ORIGINS)}`);
    const validated = await f.service.validateAgent(ctx(), { mode: 'create', spec: { name: 'reviewer-2',
      namespace: 'agents', modelConfig: 'default-model-config', harness: 'claude', toolset: ['preset:read-only'] } });
    expect(validated.valid).toBe(true);
    expect(validated.guard?.tools.every((t) => t.readOnly)).toBe(true);
  });

  it('refuse preset:full, a sign-in server, approval and a token muster refuses, writing nothing', async () => {
    expect(await refusal(claude('full', { toolset: ['preset:full'] }))).toMatch(/toolset reaches tools/);
    expect(await refusal(claude('signin', { toolset: ['preset:read-only', 'server:github'] })))
      .toMatch(/sign in/);
    expect(await refusal(claude('approve', { requireApproval: true }))).toMatch(/requireApproval/);
    expect(await refusal(f.service.createAgent(f.ctx({ token: 'forged' }), { name: 'forged', namespace: 'agents',
      modelConfig: 'default-model-config', harness: 'claude', toolset: ['preset:read-only'] }))).toMatch(/could not be checked/);
    for (const name of ['full', 'signin', 'approve', 'forged']) {
      expect(f.sandbox.store.find('helmreleases', 'agents', name)).toBeUndefined();
    }
  });

  it('leave an agent on the kagent Harness alone', async () => {
    await f.service.createAgent(ctx(), { name: 'wide', namespace: 'agents', modelConfig: 'default-model-config',
      toolset: ['preset:full'] });
    expect(values('agents', 'wide').toolset).toEqual(['preset:full']);
  });
});

describe('the same operations on chart 0.x', () => {
  it('compose the 0.x values in namespace kagent', async () => {
    await f.service.createAgent(ctx(), { name: 'old-line', modelConfig: 'default-model-config',
      toolset: ['preset:none'], runtime: 'go', wait: 60 });
    expect(values('kagent', 'old-line')).toEqual({ agent: { name: 'old-line', runtime: 'go' },
      modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] });
    expect((await f.service.getAgentStatus(ctx(), { name: 'old-line' })).verdict).toBe('ready');
  });
});

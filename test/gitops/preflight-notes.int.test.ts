/**
 * The toolset preflight in commit mode: a proposed create, update or rollback carries the
 * same `notes` an applied one does (a repeated selector, preset:none or preset:full beside
 * others), and with the installation's presets known (`--toolset-presets`) an unknown
 * preset is refused in muster's words before GitHub is asked anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubGitOpsHost } from '../../src/github/commit-host.js';
import { seedGitOpsCluster, SRE_VALUES, startGitOpsWorld, type GitOpsWorld } from '../support/github/commit-world.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { seedRevision } from './seed-revisions.js';
import { hostConfig } from './support.js';

let world: GitOpsWorld;
let f: ServiceFixture;

beforeAll(async () => {
  world = await startGitOpsWorld();
  f = await startServiceFixture({
    gitops: new GitHubGitOpsHost(hostConfig(world, 'app')),
    settings: { toolsetPresets: { configured: ['kubernetes-read'] } },
  });
  seedGitOpsCluster(f.sandbox);
  seedRevision(f.sandbox, 1, { ...SRE_VALUES, toolset: ['preset:kubernetes-read', 'tool:x', 'tool:x'] });
  seedRevision(f.sandbox, 2, { ...SRE_VALUES, toolset: ['preset:safe-ops'] }); // a preset this installation no longer has
});
afterAll(async () => {
  await f?.close();
  await world?.close();
});

const MIXED = ['preset:full', 'preset:none', 'tool:x', 'tool:x'];
const base = { modelConfig: 'default-model-config' };
const newAgent = { mode: 'commit' as const, repository: 'acme/fleet', path: 'clusters/new' };

describe('toolset preflight notes in commit mode', () => {
  it('a proposed create carries the notes an applied create and validate_agent give', async () => {
    const validated = await f.service.validateAgent(f.ctx(), { mode: 'create', spec: { ...base, name: 'mix', toolset: MIXED } });
    expect(validated.notes).toHaveLength(3);
    const applied = await f.service.createAgent(f.ctx(), { ...base, name: 'mix-live', toolset: MIXED });
    const proposed = await f.service.createAgent(f.ctx(), { ...base, name: 'mix', toolset: MIXED, ...newAgent });
    expect(proposed.commit!.pullRequest).toMatch(/\/pull\/\d+$/);
    expect(proposed.notes).toEqual(applied.notes);
    expect(proposed.notes).toEqual(validated.notes);
  });

  it('a proposed update carries the notes of the same update applied, and none when the toolset is left alone', async () => {
    const update = { name: 'sre', toolset: ['preset:none', 'server:y'] };
    const applied = await f.service.updateAgent(f.ctx(), { ...update, force: true, dryRun: true });
    const proposed = await f.service.updateAgent(f.ctx(), { ...update, mode: 'commit' });
    expect(proposed.commit!.pullRequest).toMatch(/\/pull\/\d+$/);
    expect(proposed.notes).toEqual([expect.stringMatching(/^preset:none selects nothing/)]);
    expect(proposed.notes).toEqual(applied.notes);
    const plain = await f.service.updateAgent(f.ctx(), { name: 'sre', description: 'on call', mode: 'commit', dryRun: true });
    expect(plain).not.toHaveProperty('notes');
  });

  it('a proposed rollback carries the notes on the revision\'s toolset, as an applied rollback does', async () => {
    const applied = await f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 1, force: true, dryRun: true });
    const proposed = await f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 1, mode: 'commit', dryRun: true });
    expect(applied.notes).toEqual([
      expect.stringContaining('tool:x is given more than once'),
      expect.stringMatching(/^revision 1's toolset may reach more than the current one: .*\(tool:x not in the current toolset\)$/),
    ]);
    expect(proposed.notes).toEqual(applied.notes);
  });

  it('refuses a preset the installation does not know in muster\'s words, a revision naming one too, before GitHub is asked', async () => {
    const calls = world.github.calls.length;
    const refused = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (e: Error) => e.message);
    const expected = 'invalid request: toolset [preset:safe-ops] names unknown preset "safe-ops"; known presets: read-only, none, full, agent-platform, infrastructure, kubernetes-read';
    expect(await refused(f.service.createAgent(f.ctx(), { ...base, name: 'odd', toolset: ['preset:safe-ops'], ...newAgent }))).toBe(expected);
    expect(await refused(f.service.updateAgent(f.ctx(), { name: 'sre', toolset: ['preset:safe-ops'], mode: 'commit' }))).toBe(expected);
    // A revision naming such a preset is not applied again, proposed or applied.
    const again = expected.replace('invalid request: ', 'invalid request: revision 2 cannot be applied again: ');
    expect(await refused(f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 2, mode: 'commit' }))).toBe(again);
    expect(await refused(f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 2, force: true }))).toBe(again);
    expect(world.github.calls.length).toBe(calls);
  });
});

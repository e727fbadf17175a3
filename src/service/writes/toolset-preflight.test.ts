/**
 * The toolset preflight (--toolset-presets): notes without a configured list, refusals
 * with one. Decisions of the service, on the in-memory KubePort.
 */
import { describe, expect, it } from 'vitest';
import { startFakeServiceFixture } from '../../../test/support/service/fake-fixture.js';

const open = startFakeServiceFixture();
const checked = startFakeServiceFixture({ settings: { toolsetPresets: { configured: ['safe-ops'] } } });
const base = { modelConfig: 'default-model-config' };

describe('without --toolset-presets', () => {
  it('creates an agent naming an unknown preset and says why that may break it', async () => {
    const result = await open.service.createAgent(open.ctx(), { ...base, name: 'foo', toolset: ['preset:foo'] });
    expect(result.notes).toEqual([expect.stringMatching(/^preset:foo is not one of the presets every installation has .*"foo"/)]);
  });

  it('notes a repeated selector, preset:none and preset:full beside others on validate, create and update', async () => {
    const toolset = ['preset:full', 'preset:none', 'tool:x', 'tool:x'];
    const validated = await open.service.validateAgent(open.ctx(), { mode: 'create', spec: { ...base, name: 'mix', toolset } });
    expect(validated.valid).toBe(true);
    expect(validated.notes).toHaveLength(3);
    const created = await open.service.createAgent(open.ctx(), { ...base, name: 'mix', toolset });
    expect(created.notes).toEqual(validated.notes);
    const updated = await open.service.updateAgent(open.ctx(), { name: 'mix', toolset: ['preset:none', 'server:y'] });
    expect(updated.notes).toEqual([expect.stringMatching(/^preset:none selects nothing/)]);
  });

  it('omits notes when there is nothing to say, and on an update that leaves the toolset alone', async () => {
    const created = await open.service.createAgent(open.ctx(), { ...base, name: 'plain', toolset: ['preset:read-only'] });
    expect(created).not.toHaveProperty('notes');
    const updated = await open.service.updateAgent(open.ctx(), { name: 'foo', description: 'x' });
    expect(updated).not.toHaveProperty('notes');
  });

  it('get_info lists the shipped presets and says they are not checked', async () => {
    expect((await open.service.getInfo(open.ctx())).toolset)
      .toEqual({ presets: ['read-only', 'none', 'full', 'agent-platform', 'infrastructure'], presetsChecked: false });
  });
});

describe('with --toolset-presets', () => {
  const refusal = 'toolset [tool:a,preset:foo] names unknown preset "foo"; known presets: read-only, none, full, agent-platform, infrastructure, safe-ops';

  it("refuses a create naming another preset in muster's words, and writes nothing", async () => {
    checked.kube.counters.reset();
    await expect(checked.service.createAgent(checked.ctx(), { ...base, name: 'foo', toolset: ['tool:a', 'preset:foo'] }))
      .rejects.toMatchObject({ code: 'invalid_request', message: `invalid request: ${refusal}` });
    expect(checked.kube.calls.filter((call) => !['get', 'list'].includes(call.verb))).toEqual([]);
  });

  it('accepts a configured preset without a note', async () => {
    const result = await checked.service.createAgent(checked.ctx(), { ...base, name: 'ops', toolset: ['preset:safe-ops'] });
    expect(result).not.toHaveProperty('notes');
  });

  it('refuses an update to another preset, and validate reports it as an error', async () => {
    await expect(checked.service.updateAgent(checked.ctx(), { name: 'ops', toolset: ['tool:a', 'preset:foo'] }))
      .rejects.toMatchObject({ code: 'invalid_request', message: `invalid request: ${refusal}` });
    const validated = await checked.service.validateAgent(checked.ctx(), { mode: 'create', spec: { ...base, name: 'x', toolset: ['tool:a', 'preset:foo'] } });
    expect(validated).toMatchObject({ valid: false, errors: [refusal] });
    const validatedUpdate = await checked.service.validateAgent(checked.ctx(), { mode: 'update', update: { name: 'ops', toolset: ['tool:a', 'preset:foo'] } });
    expect(validatedUpdate).toMatchObject({ valid: false, errors: [refusal] });
  });

  it('get_info lists every known preset and says they are checked', async () => {
    expect((await checked.service.getInfo(checked.ctx())).toolset)
      .toEqual({ presets: ['read-only', 'none', 'full', 'agent-platform', 'infrastructure', 'safe-ops'], presetsChecked: true });
  });
});

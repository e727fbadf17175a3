import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedRelease, seedVerifier } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;
const writes = () => f.kube.counters.count({ verb: 'create' }) + f.kube.counters.count({ verb: 'update' });

beforeAll(async () => {
  f = startFakeServiceFixture();
  seedVerifier(f.kube);
  seedAgentCr(f.kube, { name: 'bare' });
  seedRelease(f.kube, { name: 'gitops', labels: { 'kustomize.toolkit.fluxcd.io/name': 'fleet' } });
});

describe('validateAgent in create mode', () => {
  it('collects every error, composes the manifests and writes nothing', async () => {
    f.kube.counters.reset();
    const result = await f.service.validateAgent(f.ctx(), {
      mode: 'create', spec: { name: 'verifier', modelConfig: 'nope', runtime: 'rust', toolset: ['preset:read-only'] },
    });
    expect(result.valid).toBe(false);
    expect(result.mode).toBe('create');
    expect(result.schemaVersion).toBe('0.5.2');
    expect(result.schemaSource).toBe('embedded');
    expect(result.errors).toEqual([
      'modelConfig "nope" does not exist in namespace kagent; valid: default-model-config, qwen3-8-27b',
      'HelmRelease kagent/verifier already exists (use update_agent)',
      'Agent kagent/verifier already exists',
      expect.stringContaining('/agent/runtime'),
    ]);
    expect(result.manifests.helmRelease).toContain('name: verifier');
    expect(result.manifests.values).toMatchObject({ agent: { name: 'verifier', runtime: 'rust' } });
    expect(writes()).toBe(0);
  });

  it('says valid for a good request, with the toolset in the values', async () => {
    const result = await f.service.validateAgent(f.ctx(), {
      mode: 'create', spec: { name: 'fresh', modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
    });
    expect(result).toMatchObject({ valid: true, mode: 'create' });
    expect(result).not.toHaveProperty('errors');
    expect(result.manifests.values).toEqual({ agent: { name: 'fresh' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only'] });
  });

  it('collects request problems too: name, toolset', async () => {
    const result = await f.service.validateAgent(f.ctx(), { mode: 'create', spec: { name: 'Bad Name', modelConfig: 'default-model-config' } });
    expect(result.errors?.[0]).toMatch(/^name "Bad Name" must be a DNS-1123 label/);
    expect(result.errors?.[1]).toMatch(/^toolset is required/);
  });

  it('reports every bad selector of a toolset, not only the first', async () => {
    const result = await f.service.validateAgent(f.ctx(), {
      mode: 'create', spec: { name: 'fresh', modelConfig: 'default-model-config', toolset: ['pattern:x', 'preset:read-only', 'toolset:y', 'tool:a\u0000b'] },
    });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      expect.stringMatching(/^toolset selector "pattern:x" is not preset:<name>/),
      expect.stringMatching(/^toolset selector "toolset:y": the toolset: prefix is reserved/),
      expect.stringMatching(/^toolset selector "tool:a\\x00b" has a character/),
    ]);
  });

  it('reports the inline cap and the bad selectors beside it', async () => {
    const toolset = [...Array.from({ length: 32 }, (_, i) => `tool:x_${i}`), 'pattern:x'];
    const result = await f.service.validateAgent(f.ctx(), { mode: 'create', spec: { name: 'fresh', modelConfig: 'default-model-config', toolset } });
    expect(result.errors).toEqual([
      expect.stringMatching(/^toolset has 33 selectors, more than the inline cap of 32/),
      expect.stringMatching(/^toolset selector "pattern:x" is not/),
    ]);
  });
});

describe('validateAgent in update mode', () => {
  it('collects modelConfig and schema problems of the merged values', async () => {
    const result = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'verifier', runtime: 'rust', modelConfig: 'nope' } });
    expect(result.valid).toBe(false);
    expect(result.mode).toBe('update');
    expect(result.errors).toEqual([expect.stringContaining('modelConfig "nope"'), expect.stringContaining('/agent/runtime')]);
  });

  it('notes a refused value the live release carries, not the change, with how to get past it', async () => {
    seedRelease(f.kube, {
      name: 'hand-edited', ready: false,
      values: { agent: { name: 'hand-edited', runtime: 'rust' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] },
    });
    const result = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'hand-edited', description: 'fix attempt' } });
    expect(result.errors).toEqual(['/agent/runtime: "rust" is not one of "go", "python"']);
    expect(result.notes).toContainEqual(expect.stringMatching(/^The live release already carries the value at \/agent\/runtime, which this change does not set: set runtime/));
  });

  it('answers ownership and not-found problems as errors', async () => {
    await expect(f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'gitops', description: 'x' } }))
      .rejects.toMatchObject({ code: 'conflict' });
    await expect(f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'bare', description: 'x' } }))
      .rejects.toMatchObject({ code: 'conflict' });
    await expect(f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'nothing', description: 'x' } }))
      .rejects.toMatchObject({ code: 'not_found', message: 'not found: agent kagent/nothing (list_agents lists the agents there are)' });
  });

  it('reports every bad selector of a toolset change', async () => {
    const result = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'verifier', toolset: ['label:a', 'server:ok', 'Tool:x'] } });
    expect(result.errors).toEqual([
      expect.stringMatching(/^toolset selector "label:a": label: selectors are allowed inside presets only/),
      expect.stringMatching(/^toolset selector "Tool:x" is not/),
    ]);
  });

  it('is valid for a good change and writes nothing', async () => {
    f.kube.counters.reset();
    const result = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'verifier', displayName: '' } });
    expect(result).toMatchObject({ valid: true, mode: 'update' });
    expect(result.manifests.values).toEqual({ agent: { name: 'verifier' }, modelConfig: { name: 'default-model-config' } });
    expect(writes()).toBe(0);
  });
});

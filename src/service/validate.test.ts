import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from './testing/fixture.js';
import { seedAgentCr, seedRelease, seedVerifier } from './testing/seed-agents.js';

let f: ServiceFixture;
const writes = () => f.sandbox.counters.count({ verb: 'create' }) + f.sandbox.counters.count({ verb: 'update' });

beforeAll(async () => {
  f = await startServiceFixture();
  seedVerifier(f.sandbox);
  seedAgentCr(f.sandbox, { name: 'bare' });
  seedRelease(f.sandbox, { name: 'gitops', labels: { 'kustomize.toolkit.fluxcd.io/name': 'fleet' } });
});
afterAll(() => f.close());

describe('validateAgent in create mode', () => {
  it('collects every error, composes the manifests and writes nothing', async () => {
    f.sandbox.counters.reset();
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
});

describe('validateAgent in update mode', () => {
  it('collects modelConfig and schema problems of the merged values', async () => {
    const result = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'verifier', runtime: 'rust', modelConfig: 'nope' } });
    expect(result.valid).toBe(false);
    expect(result.mode).toBe('update');
    expect(result.errors).toEqual([expect.stringContaining('modelConfig "nope"'), expect.stringContaining('/agent/runtime')]);
  });

  it('answers ownership and not-found problems as errors', async () => {
    await expect(f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'gitops', description: 'x' } }))
      .rejects.toMatchObject({ code: 'conflict' });
    await expect(f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'bare', description: 'x' } }))
      .rejects.toMatchObject({ code: 'conflict' });
    await expect(f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'nothing', description: 'x' } }))
      .rejects.toMatchObject({ code: 'not_found', message: 'not found: agent kagent/nothing' });
  });

  it('is valid for a good change and writes nothing', async () => {
    f.sandbox.counters.reset();
    const result = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'verifier', displayName: '' } });
    expect(result).toMatchObject({ valid: true, mode: 'update' });
    expect(result.manifests.values).toEqual({ agent: { name: 'verifier' }, modelConfig: { name: 'default-model-config' } });
    expect(writes()).toBe(0);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../core/types.js';
import { namespacesOf, startNamespacedFixture, type NamespacedFixture } from '../../../test/support/service/shared-fixture.js';
import { seedAgentCr, seedModelConfig, seedVerifier } from '../../../test/support/service/seed-agents.js';

// This file's own namespaces on the worker's shared sandbox.
const { home, tenant } = namespacesOf('svc-create');
let f: NamespacedFixture;
const writes = () => f.sandbox.counters.count({ verb: 'create' }) + f.sandbox.counters.count({ verb: 'update' });
const spec = (overrides: Partial<AgentSpec> = {}): AgentSpec => ({
  name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'], ...overrides,
});

beforeAll(async () => {
  f = await startNamespacedFixture('svc-create');
  seedVerifier(f.sandbox, home);
  seedAgentCr(f.sandbox, { namespace: home, name: 'bare', ready: true });
  seedModelConfig(f.sandbox, tenant, 'default-model-config', 'Anthropic', 'claude-sonnet-4-6');
});
afterAll(() => f.close());
beforeEach(() => f.sandbox.counters.reset());

describe('createAgent refuses bad requests and writes nothing', () => {
  it.each([
    ['a bad name', spec({ name: 'Bad Name' }), 'invalid_request', `name "Bad Name" must be a DNS-1123 label`],
    ['a missing toolset', spec({ toolset: undefined }), 'invalid_request', 'toolset is required: declare which of the gateway'],
    ['an empty toolset', spec({ toolset: [] }), 'invalid_request', 'toolset is empty; use ["preset:none"]'],
    ['toolNames', spec({ toolNames: ['x'] }), 'invalid_request', 'toolNames never narrowed anything against muster'],
    ['an unknown modelConfig', spec({ modelConfig: 'nope' }), 'invalid_request',
      `modelConfig "nope" does not exist in namespace ${home}; valid: default-model-config, qwen3-8-27b`],
    ['a missing modelConfig', spec({ modelConfig: ' ' }), 'invalid_request', 'modelConfig is required'],
    ['a 64-character displayName', spec({ displayName: 'x'.repeat(64) }), 'invalid_request',
      'values do not satisfy the agent chart schema 0.5.2 (embedded): /agent/displayName'],
    ['a runtime outside go|python', spec({ runtime: 'rust' }), 'invalid_request', '/agent/runtime'],
    ['an existing release', spec({ name: 'verifier' }), 'conflict',
      `conflict: HelmRelease ${home}/verifier already exists; use update_agent to change it`],
    ['an existing bare Agent', spec({ name: 'bare' }), 'conflict',
      `conflict: Agent ${home}/bare already exists without a HelmRelease (a bare CR); delete it first (delete_agent with force) `
        + 'or pick another name'],
    ['an unmanaged namespace', spec({ namespace: 'default' }), 'invalid_request', 'namespace "default" is not managed'],
    ['a label key Kubernetes refuses', spec({ labels: { 'a b': 'x' } }), 'invalid_request', 'labels key "a b" is not a valid Kubernetes label key'],
    ['a label value over 63 characters', spec({ labels: { team: 'v'.repeat(64) } }), 'invalid_request', 'labels["team"] is longer than 63 characters'],
    ['an annotation key Kubernetes refuses', spec({ annotations: { '/x': 'y' } }), 'invalid_request', 'annotations key "/x" is not a valid'],
  ])('%s', async (_name, request, code, text) => {
    const err = await f.service.createAgent(f.ctx(), request).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code });
    expect((err as Error).message).toContain(text);
    expect(writes()).toBe(0);
  });
});

describe('createAgent writes the source and the release', () => {
  it('reuses the shared OCIRepository, writes exactly the composed values and embeds a progressing status', async () => {
    const result = await f.service.createAgent(f.ctx(), spec({
      displayName: 'SRE Assistant', skills: { gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', path: 'runbooks', ref: 'main' }] },
      toolset: ['preset:read-only', 'workflow:incident-triage'],
    }));
    expect(result.created).toEqual({ ociRepository: false, helmRelease: true });
    expect(result.status?.verdict).toBe('progressing');
    expect(result.status?.summary).toBe('HelmRelease created; Flux has not reconciled it yet');
    expect(result).not.toHaveProperty('requestedBy');
    const written = f.sandbox.store.get('helmreleases', home, 'sre') as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
    expect(written.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'agent-manager' });
    expect(written.spec.values).toEqual({
      agent: { name: 'sre', displayName: 'SRE Assistant' },
      modelConfig: { name: 'default-model-config' },
      skills: { gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', path: 'runbooks', ref: 'main', name: 'runbooks' }] },
      toolset: ['preset:read-only', 'workflow:incident-triage'],
    });
    expect(written.spec.chartRef).toEqual({ kind: 'OCIRepository', name: 'agent', namespace: home });
    expect(result.agent).toMatchObject({ name: 'sre', exists: false, managed: 'helmrelease', toolset: ['preset:read-only', 'workflow:incident-triage'] });
    expect(result.manifests.helmRelease).toContain('kind: HelmRelease');
    expect(f.sandbox.counters.count({ verb: 'create', resource: 'helmreleases.helm.toolkit.fluxcd.io' })).toBe(1);
    expect(f.sandbox.counters.count({ verb: 'create', resource: 'controllerrevisions.apps' })).toBe(1);
    expect(f.sandbox.counters.count({ verb: 'create' })).toBe(2);
  });

  it('creates the OCIRepository with the chart URL in a namespace that has none', async () => {
    const result = await f.service.createAgent(f.ctx(), spec({ namespace: tenant, name: 'helper' }));
    expect(result.created).toEqual({ ociRepository: true, helmRelease: true });
    const source = f.sandbox.store.get('ocirepositories', tenant, 'agent') as { spec: unknown; metadata: { labels: unknown } };
    expect(source.spec).toMatchObject({ interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: '0.x' } });
    expect(source.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'agent-manager' });
  });

  it('answers a second create of the same name with 409', async () => {
    await expect(f.service.createAgent(f.ctx(), spec())).rejects.toMatchObject({ code: 'conflict' });
  });

  it('names the caller as requestedBy when there is one', async () => {
    const result = await f.service.createAgent(
      f.ctx({ caller: { subject: 'sub-admin', email: 'admin@lab.local', groups: ['platform-admins'], source: 'sso' } }),
      spec({ name: 'by-admin' }),
    );
    expect(result.requestedBy).toBe('admin@lab.local');
  });

  it.each([
    [403, 'forbidden', false],
    [422, 'invalid_request', false],
    [500, 'backend_error', true],
  ])('after a %i on the release write (%s), keeps the source it created: %s', async (status, code, kept) => {
    const remove = f.sandbox.hooks.use(async (ctx, next) => {
      if (ctx.info.verb === 'create' && ctx.info.resource === 'helmreleases') {
        ctx.res.writeHead(status, { 'content-type': 'application/json' });
        ctx.res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'injected', code: status }));
        return;
      }
      await next();
    });
    try {
      if (f.sandbox.store.find('helmreleases', tenant, 'helper')) f.sandbox.store.delete('helmreleases', tenant, 'helper');
      if (f.sandbox.store.find('ocirepositories', tenant, 'agent')) f.sandbox.store.delete('ocirepositories', tenant, 'agent');
      const err = await f.service.createAgent(f.ctx(), spec({ namespace: tenant, name: 'doomed' })).catch((e: unknown) => e);
      expect(err).toMatchObject({ code });
      // A refusal proves nothing was written, so the new source goes again; after a 5xx the
      // release may still land, so the source stays rather than risk a release without one.
      expect(f.sandbox.store.find('ocirepositories', tenant, 'agent') !== undefined).toBe(kept);
      expect(f.sandbox.store.find('helmreleases', tenant, 'doomed')).toBeUndefined();
    } finally {
      remove();
    }
  });
});

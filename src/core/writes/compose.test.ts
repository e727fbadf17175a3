import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  buildHelmRelease,
  buildOciRepository,
  buildValues,
  chartNameOf,
  composeManifests,
  gitSkillName,
  skillsValues,
  type ComposeConfig,
} from './compose.js';
import type { AgentSpec, GitRef } from '../types.js';

const testdata = (file: string): string =>
  readFileSync(new URL(`../testdata/${file}`, import.meta.url), 'utf8');

/** The platform defaults (the serve flags' defaults, no service account). */
const DEFAULT_COMPOSE = JSON.parse(testdata('compose-config.json')) as ComposeConfig;

const minimal: AgentSpec = { name: 'sre', modelConfig: 'default-model-config' };
const fullExample = JSON.parse(testdata('full-example.spec.json')) as AgentSpec;

describe('buildValues', () => {
  it('composes exactly agent.name and modelConfig.name for a minimal spec', () => {
    expect(buildValues(minimal)).toStrictEqual({
      agent: { name: 'sre' },
      modelConfig: { name: 'default-model-config' },
    });
  });

  it("composes the project README's full example exactly", () => {
    expect(buildValues(fullExample)).toStrictEqual(JSON.parse(testdata('full-example.values.json')));
  });

  it('emits every field the caller set, as given', () => {
    const values = buildValues({
      ...minimal,
      displayName: 'SRE',
      description: 'Keeps the lights on',
      iconUrl: 'https://example.com/i.png',
      systemMessage: '  Be brief.\n',
      runtime: 'python',
      skills: { refs: ['ghcr.io/o/skills:1'], gitAuthSecretName: 'skills-token' },
      toolset: ['preset:none'],
      labels: { team: 'sre' },
      annotations: { note: 'x' },
    });
    expect(values).toStrictEqual({
      agent: {
        name: 'sre',
        displayName: 'SRE',
        description: 'Keeps the lights on',
        iconUrl: 'https://example.com/i.png',
        systemMessage: '  Be brief.\n',
        runtime: 'python',
      },
      modelConfig: { name: 'default-model-config' },
      skills: { refs: ['ghcr.io/o/skills:1'], gitAuthSecretRef: { name: 'skills-token' } },
      toolset: ['preset:none'],
      labels: { team: 'sre' },
      annotations: { note: 'x' },
    });
  });

  it.each([
    ['empty strings', ''],
    ['whitespace-only strings', ' \t\n'],
  ])('treats %s as unset', (_label, blank) => {
    const values = buildValues({
      ...minimal,
      displayName: blank,
      description: blank,
      iconUrl: blank,
      systemMessage: blank,
      runtime: blank,
      skills: { refs: ['r:1'], gitRefs: [{ url: 'https://github.com/o/r', path: blank, ref: blank }], gitAuthSecretName: blank },
    });
    expect(values).toStrictEqual({
      agent: { name: 'sre' },
      modelConfig: { name: 'default-model-config' },
      skills: { refs: ['r:1'], gitRefs: [{ url: 'https://github.com/o/r', name: 'r' }] },
    });
  });

  it('composes the toolset exactly as given, as the top-level toolset value', () => {
    const toolset = ['tool:b', 'preset:read-only', 'server:x', 'tool:b'];
    const values = buildValues({ ...minimal, toolset });
    expect(values.toolset).toStrictEqual(toolset);
    expect(values.toolset).not.toBe(toolset);
  });

  it('never writes muster.toolNames, even when a caller still passes toolNames', () => {
    const values = buildValues({ ...minimal, toolNames: ['x_kubernetes_get'], toolset: ['preset:full'] });
    expect(values).not.toHaveProperty('muster');
  });

  it('omits empty labels, annotations and skills', () => {
    const values = buildValues({
      ...minimal,
      labels: {},
      annotations: {},
      skills: { refs: [], gitRefs: [], gitAuthSecretName: 'only-a-secret' },
    });
    expect(values).toStrictEqual({ agent: { name: 'sre' }, modelConfig: { name: 'default-model-config' } });
  });

  it('copies caller maps and lists instead of sharing them', () => {
    const spec: AgentSpec = { ...minimal, labels: { a: 'b' }, skills: { refs: ['r:1'] } };
    const values = buildValues(spec);
    expect(values.labels).not.toBe(spec.labels);
    expect((values.skills as { refs: string[] }).refs).not.toBe(spec.skills?.refs);
  });
});

describe('gitSkillName', () => {
  it.each<[string, GitRef, string]>([
    ['explicit name wins', { url: 'https://github.com/o/r', path: 'a/b', name: 'mine' }, 'mine'],
    ['last path segment, slashes trimmed', { url: 'https://github.com/o/r', path: 'a/b/' }, 'b'],
    ['leading slash path', { url: 'https://github.com/o/r', path: '/runbooks' }, 'runbooks'],
    ['single path segment', { url: 'https://github.com/o/r', path: 'runbooks' }, 'runbooks'],
    ['repository name without .git', { url: 'https://github.com/o/r.git' }, 'r'],
    ['repository name with a trailing slash', { url: 'https://github.com/o/r/' }, 'r'],
    ['repository name of a .git URL with a trailing slash', { url: 'https://github.com/o/r.git/' }, 'r'],
    ['slash-only path falls back to the repository', { url: 'https://github.com/o/r', path: '/' }, 'r'],
    ['whitespace name falls back to the path', { url: 'https://github.com/o/r', path: 'x', name: ' ' }, 'x'],
    ['scp-style git URL', { url: 'git@github.com:o/skills.git' }, 'skills'],
  ])('%s', (_label, ref, want) => {
    expect(gitSkillName(ref)).toBe(want);
  });

  it('fills every gitRefs[].name in the skills block', () => {
    expect(skillsValues({ gitRefs: [{ url: 'https://github.com/o/r', path: 'a/b/' }] })).toStrictEqual({
      gitRefs: [{ url: 'https://github.com/o/r', path: 'a/b/', name: 'b' }],
    });
  });
});

describe('chartNameOf', () => {
  it.each([
    ['oci://gsoci.azurecr.io/charts/giantswarm/agent', 'agent'],
    ['oci://registry.local/charts/my-agent/', 'my-agent'],
    ['oci://127.0.0.1:5000/agent', 'agent'],
  ])('names %s %s', (url, want) => {
    expect(chartNameOf(url)).toBe(want);
  });
});

describe('buildHelmRelease', () => {
  const values = buildValues(minimal);

  it('renders from the shared chart source of the namespace, with the managed-by label only', () => {
    expect(buildHelmRelease('kagent', 'sre', values, DEFAULT_COMPOSE)).toStrictEqual({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: {
        name: 'sre',
        namespace: 'kagent',
        labels: { 'app.kubernetes.io/managed-by': 'agent-manager' },
      },
      spec: {
        interval: '10m',
        chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' },
        values: { agent: { name: 'sre' }, modelConfig: { name: 'default-model-config' } },
      },
    });
  });

  it('sets serviceAccountName only when one is configured', () => {
    const withSa = buildHelmRelease('team-a', 'sre', values, {
      ...DEFAULT_COMPOSE,
      helmReleaseServiceAccount: 'flux-tenant',
    });
    expect(withSa.spec.serviceAccountName).toBe('flux-tenant');
    expect(Object.keys(withSa.spec)).toStrictEqual(['interval', 'serviceAccountName', 'chartRef', 'values']);
    for (const unset of [undefined, '', '  ']) {
      const cfg = { ...DEFAULT_COMPOSE, helmReleaseServiceAccount: unset };
      expect(buildHelmRelease('kagent', 'sre', values, cfg).spec).not.toHaveProperty('serviceAccountName');
    }
  });

  it('uses the configured API version and the chart name of the configured URL', () => {
    const hr = buildHelmRelease('kagent', 'sre', values, {
      ...DEFAULT_COMPOSE,
      chartOciUrl: 'oci://registry.local/charts/custom-agent',
      apiVersions: { helmRelease: 'helm.toolkit.fluxcd.io/v2beta2', ociRepository: 'x/v1' },
    });
    expect(hr.apiVersion).toBe('helm.toolkit.fluxcd.io/v2beta2');
    expect(hr.spec.chartRef).toStrictEqual({ kind: 'OCIRepository', name: 'custom-agent', namespace: 'kagent' });
  });
});

describe('buildOciRepository', () => {
  it('is named after the chart and tracks it by the configured range', () => {
    expect(buildOciRepository('kagent', DEFAULT_COMPOSE)).toStrictEqual({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'OCIRepository',
      metadata: {
        name: 'agent',
        namespace: 'kagent',
        labels: { 'app.kubernetes.io/managed-by': 'agent-manager' },
      },
      spec: {
        interval: '30m',
        url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent',
        ref: { semver: 'x.x.x' },
      },
    });
  });
});

describe('buildOciRepository for a private registry', () => {
  it('names the pull Secret as spec.secretRef and a cloud provider as spec.provider', () => {
    const spec = buildOciRepository('kagent', { ...DEFAULT_COMPOSE, chartSecretRef: 'chart-pull', chartProvider: 'azure' }).spec;
    expect(spec).toStrictEqual({
      interval: '30m',
      url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent',
      ref: { semver: 'x.x.x' },
      provider: 'azure',
      secretRef: { name: 'chart-pull' },
    });
  });

  it.each([[undefined], [''], ['  ']])('writes neither when the Secret is %j and the provider generic', (secret) => {
    const spec = buildOciRepository('kagent', { ...DEFAULT_COMPOSE, chartSecretRef: secret, chartProvider: 'generic' }).spec;
    expect(Object.keys(spec)).toEqual(['interval', 'url', 'ref']);
  });
});

describe('composeManifests', () => {
  const values = buildValues(fullExample);
  const manifests = composeManifests('kagent', 'sre', values, DEFAULT_COMPOSE);

  it("renders the README's full example as the golden HelmRelease YAML", () => {
    expect(manifests.helmRelease).toBe(testdata('full-example.helmrelease.yaml'));
  });

  it('renders the shared OCIRepository as the golden YAML', () => {
    expect(manifests.ociRepository).toBe(testdata('full-example.ocirepository.yaml'));
  });

  it('returns the values it rendered', () => {
    expect(manifests.values).toBe(values);
    expect(parse(manifests.helmRelease).spec.values).toStrictEqual(values);
  });
});

describe('composeManifests with strings that look like numbers', () => {
  it('renders displayName "0o17" and the label value "0o17" so YAML 1.1 and 1.2 readers read the same strings back', () => {
    const spec = { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'], displayName: '0o17', labels: { c: '0o17' } };
    const values = buildValues(spec);
    const { helmRelease } = composeManifests('kagent', 'sre', values, DEFAULT_COMPOSE);
    for (const version of ['1.1', '1.2'] as const) {
      expect(parse(helmRelease, { version }).spec.values, `YAML ${version}`).toStrictEqual(values);
    }
  });
});

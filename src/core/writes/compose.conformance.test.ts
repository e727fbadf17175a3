// Conformance: the composed HelmRelease and OCIRepository validate against the real
// Flux CRD schemas (../shared/reference/flux-crds, read at run time, never copied).
// The CRD schemas are OpenAPI v3 structural schemas: `x-kubernetes-*` keys are
// stripped, and every object with declared properties is closed, because the
// apiserver silently prunes unknown fields: a field it would prune is a bug here.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  buildHelmRelease,
  buildOciRepository,
  buildValues,
  type ComposeConfig,
  type ComposedObject,
} from './compose.js';
import type { AgentSpec } from '../types.js';
import { hasShared, needsShared, sharedPath } from '../../../test/support/shared-reference.js';

const CRDS = `${sharedPath('reference/flux-crds')}/`;
const haveCrds = hasShared('reference/flux-crds');
const title = needsShared('composed objects conform to the Flux CRD schemas', 'reference/flux-crds');

const testdata = (file: string): string =>
  readFileSync(new URL(`../testdata/${file}`, import.meta.url), 'utf8');
const cfg = JSON.parse(testdata('compose-config.json')) as ComposeConfig;
const fullExample = JSON.parse(testdata('full-example.spec.json')) as AgentSpec;

interface CrdVersion {
  name: string;
  served: boolean;
  schema: { openAPIV3Schema: Record<string, unknown> };
}
interface Crd {
  spec: { group: string; names: { kind: string }; versions: CrdVersion[] };
}

/** The strict JSON schema of the served CRD version that `apiVersion` names. */
function crdSchema(file: string, apiVersion: string, kind: string): Record<string, unknown> {
  const crd = parse(readFileSync(`${CRDS}${file}`, 'utf8')) as Crd;
  const [group, version] = apiVersion.split('/');
  expect(crd.spec.group).toBe(group);
  expect(crd.spec.names.kind).toBe(kind);
  const served = crd.spec.versions.find((v) => v.name === version && v.served);
  if (!served) throw new Error(`${file} serves no version ${version}`);
  return structural(served.schema.openAPIV3Schema) as Record<string, unknown>;
}

function structural(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(structural);
  if (typeof node !== 'object' || node === null) return node;
  const src = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(src)) {
    if (key.startsWith('x-kubernetes-')) continue;
    // `properties` maps field names to schemas; its keys are not keywords.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, structural(v)]))
        : structural(value);
  }
  const keepsUnknown = src['x-kubernetes-preserve-unknown-fields'] === true;
  if (src.properties && src.additionalProperties === undefined && !keepsUnknown) {
    out.additionalProperties = false;
  }
  return out;
}

const validators = new Map<Record<string, unknown>, ValidateFunction>();

function violations(schema: Record<string, unknown>, obj: unknown): string[] {
  let validate = validators.get(schema);
  if (!validate) {
    validate = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false }).compile(schema);
    validators.set(schema, validate);
  }
  if (validate(obj)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}`);
}

describe.skipIf(!haveCrds)(title, () => {
  // Read and compiled once, on first use (never at collection time, so a skip stays a skip).
  let hrSchema: Record<string, unknown> | undefined;
  let ociSchema: Record<string, unknown> | undefined;
  const helmRelease = () =>
    (hrSchema ??= crdSchema('helm.toolkit.fluxcd.io_helmreleases.yaml', cfg.apiVersions.helmRelease, 'HelmRelease'));
  const ociRepository = () =>
    (ociSchema ??= crdSchema(
      'source.toolkit.fluxcd.io_ocirepositories.yaml',
      cfg.apiVersions.ociRepository,
      'OCIRepository',
    ));

  const releases: [string, ComposedObject][] = [
    ['minimal', buildHelmRelease('kagent', 'sre', buildValues({ name: 'sre', modelConfig: 'm' }), cfg)],
    ["the README's full example", buildHelmRelease('kagent', 'sre', buildValues(fullExample), cfg)],
    [
      'with a service account',
      buildHelmRelease('team-a', 'sre', buildValues(fullExample), { ...cfg, helmReleaseServiceAccount: 'flux' }),
    ],
  ];

  it.each(releases)('accepts the HelmRelease (%s)', (_label, obj) => {
    expect(violations(helmRelease(), obj)).toStrictEqual([]);
    // The CRD's CEL rule, which JSON Schema cannot express: exactly one of chart and chartRef.
    expect(['chart', 'chartRef'].filter((k) => k in obj.spec)).toStrictEqual(['chartRef']);
  });

  it('accepts the shared OCIRepository', () => {
    expect(violations(ociRepository(), buildOciRepository('kagent', cfg))).toStrictEqual([]);
  });

  it('refuses a field the apiserver would prune and a malformed interval (the check has teeth)', () => {
    const [, good] = releases[0]!;
    const bad = { ...good, spec: { ...good.spec, chartref: good.spec.chartRef, interval: 'ten minutes' } };
    const found = violations(helmRelease(), bad);
    expect(found.some((v) => v.startsWith('/spec: must NOT have additional properties'))).toBe(true);
    expect(found.some((v) => v.startsWith('/spec/interval: must match pattern'))).toBe(true);
  });
});

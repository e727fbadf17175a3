/**
 * Our hand-written structural schemas against the real CRDs in ../shared/reference
 * (Flux helm-controller v1.6.3, source-controller v1.9.1, kustomize-controller, kagent upstream): every field
 * we declare exists there with the same type, enum, required list, default and pattern,
 * preserve-unknown-fields is where the real CRD has it, and every field the real CRD
 * declares at a level we model is declared by us too — so the sandbox prunes exactly
 * what a real cluster prunes. Subtrees we mark summarised are accepted as given and not
 * compared. Skipped, saying so, when the reference files are absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { needsShared, sharedPath } from '../../../test/support/shared-reference.js';
import { agents, gitrepositories, helmreleases, kustomizations, modelconfigs, ocirepositories } from '../custom.js';
import type { SchemaNode } from '../schema.js';
import type { ResourceDef } from '../resource-def.js';

const REFERENCE = sharedPath('reference');
const present = existsSync(REFERENCE);
const title = needsShared('sandbox CRD schemas against the real CRDs', 'reference');

const CASES: Array<[string, ResourceDef, string]> = [
  ['HelmRelease', helmreleases, 'flux-crds/helm.toolkit.fluxcd.io_helmreleases.yaml'],
  ['OCIRepository', ocirepositories, 'flux-crds/source.toolkit.fluxcd.io_ocirepositories.yaml'],
  ['Kustomization', kustomizations, 'flux-crds/kustomize.toolkit.fluxcd.io_kustomizations.yaml'],
  ['GitRepository', gitrepositories, 'flux-crds/source.toolkit.fluxcd.io_gitrepositories.yaml'],
  ['Agent', agents, 'kagent-crds/kagent.dev_agents.yaml'],
  ['ModelConfig', modelconfigs, 'kagent-crds/kagent.dev_modelconfigs.yaml'],
];

type Real = Record<string, any>;

function loadCrd(file: string): any {
  return parse(readFileSync(join(REFERENCE, file), 'utf8'));
}

/** Differences between our node and the real one, as `path: problem` lines. */
function compare(ours: SchemaNode, real: Real, path: string, out: string[]): void {
  const where = path || '(root)';
  if (ours.type !== undefined && real.type !== undefined && ours.type !== real.type) out.push(`${where}: type ${ours.type} vs real ${real.type}`);
  if (ours['x-sandbox-summarised']) return;
  const same = (key: keyof SchemaNode & string) => {
    const a = ours[key];
    const b = real[key];
    if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null)) out.push(`${where}: ${key} ${JSON.stringify(a)} vs real ${JSON.stringify(b)}`);
  };
  for (const key of ['enum', 'default', 'pattern', 'maxLength', 'minLength', 'minimum', 'maxItems', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type', 'x-kubernetes-map-type'] as const) same(key);
  const sortedRequired = (n: { required?: string[] }) => JSON.stringify([...(n.required ?? [])].sort());
  if (sortedRequired(ours) !== sortedRequired(real)) out.push(`${where}: required ${sortedRequired(ours)} vs real ${sortedRequired(real)}`);
  if (ours.properties) {
    const realProps: Real = real.properties ?? {};
    for (const [key, child] of Object.entries(ours.properties)) {
      const next = path ? `${path}.${key}` : key;
      if (!(key in realProps)) out.push(`${next}: declared by us, absent from the real CRD`);
      else compare(child, realProps[key], next, out);
    }
    for (const key of Object.keys(realProps)) {
      if (!(key in ours.properties)) out.push(`${path ? `${path}.${key}` : key}: declared by the real CRD, missing from ours (would be pruned)`);
    }
  }
  if (ours.items && real.items) compare(ours.items, real.items, `${path}[]`, out);
  if (ours.additionalProperties && real.additionalProperties) compare(ours.additionalProperties, real.additionalProperties, `${path}{}`, out);
}

describe.skipIf(!present)(title, () => {
  it.each(CASES)('%s: names, scope, subresources and printer columns match', (_kind, def, file) => {
    const crd = loadCrd(file);
    expect(crd.spec.group).toBe(def.group);
    expect(crd.spec.names.plural).toBe(def.resource);
    expect(crd.spec.names.singular).toBe(def.singular);
    expect(crd.spec.names.kind).toBe(def.kind);
    expect(crd.spec.names.shortNames ?? []).toEqual(def.shortNames);
    expect(crd.spec.names.categories ?? []).toEqual(def.categories);
    expect(crd.spec.scope === 'Namespaced').toBe(def.namespaced);
    const version = crd.spec.versions.find((v: any) => v.name === def.version);
    expect(version.served).toBe(true);
    expect(Boolean(version.subresources?.status)).toBe(def.statusSubresource);
    const columns = (version.additionalPrinterColumns ?? []).map((c: any) => c.name);
    expect(def.columns.map((c) => c.name)).toEqual(['Name', ...columns]);
  });

  it.each(CASES)('%s: our schema agrees with the real openAPIV3Schema', (_kind, def, file) => {
    const crd = loadCrd(file);
    const real = crd.spec.versions.find((v: any) => v.name === def.version).schema.openAPIV3Schema;
    const problems: string[] = [];
    const ours = def.schema.properties!;
    for (const part of ['spec', 'status'] as const) compare(ours[part]!, real.properties[part], part, problems);
    expect(problems).toEqual([]);
  });
});

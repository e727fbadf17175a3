/**
 * The `api.kagent.dev/v1alpha3` kinds against upstream kagent's v1alpha3 CRDs in ../shared/reference (the
 * platform's own CRDs are not public): the same names, short names and categories under Giant Swarm's
 * group, the same RemoteMCPServer and ModelConfig fields, and the skill and plugin sources held to
 * upstream's pinning patterns (the POSIX `[:space:]` written `\s`). Skipped, saying so, when ../shared is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { needsShared, sharedPath } from '../../test/support/shared-reference.js';
import { agentsV2, harnesses, modelconfigsV2, remotemcpservers } from './kagent-v2.js';
import type { ResourceDef } from './resource-def.js';

const CRDS = 'reference/kagent-crds';
const present = existsSync(sharedPath(CRDS));
const load = (file: string): any => parse(readFileSync(sharedPath(`${CRDS}/${file}`), 'utf8'));
const v1alpha3 = (crd: any): any => crd.spec.versions.find((v: any) => v.name === 'v1alpha3').schema.openAPIV3Schema;
const posix = (pattern: string) => pattern.replaceAll('[^[:space:]]', '\\S').replaceAll('[:space:]', '\\s');

const CASES: Array<[string, ResourceDef, string]> = [
  ['Agent (upstream AgentTemplate\'s names are agenttemplates; the Agent keeps kagent.dev\'s)', agentsV2, 'kagent.dev_agents.yaml'],
  ['Harness', harnesses, 'kagent.dev_harnesses.yaml'],
  ['ModelConfig', modelconfigsV2, 'kagent.dev_modelconfigs.yaml'],
  ['RemoteMCPServer', remotemcpservers, 'kagent.dev_remotemcpservers.yaml'],
];

describe.skipIf(!present)(needsShared('the api.kagent.dev kinds against upstream kagent', CRDS), () => {
  it.each(CASES)('%s: upstream\'s names, short names and categories, in group api.kagent.dev', (_kind, def, file) => {
    const names = load(file).spec.names;
    expect(def.group).toBe('api.kagent.dev');
    expect([def.resource, def.singular, def.kind, def.shortNames, def.categories])
      .toEqual([names.plural, names.singular, names.kind, names.shortNames ?? [], names.categories ?? []]);
  });

  it.each([
    ['RemoteMCPServer', remotemcpservers, 'kagent.dev_remotemcpservers.yaml'],
    ['ModelConfig', modelconfigsV2, 'kagent.dev_modelconfigs.yaml'],
  ] as const)('%s declares exactly upstream\'s v1alpha3 spec and status fields', (_kind, def, file) => {
    const real = v1alpha3(load(file));
    for (const part of ['spec', 'status']) {
      const ours = Object.keys(def.schema.properties![part]!.properties!);
      expect(ours.sort()).toEqual(Object.keys(real.properties[part].properties).sort());
    }
    expect(def.schema.properties!.spec!.required).toEqual(real.properties.spec.required);
  });

  it('pins skill and plugin sources with upstream\'s patterns', () => {
    const real = v1alpha3(load('kagent.dev_agenttemplates.yaml')).properties.spec.properties;
    const template = agentsV2.schema.properties!.spec!.properties!.template!.properties!;
    for (const key of ['skills', 'plugins'] as const) {
      const ours = template[key]!.items!.properties!.source!.properties!;
      const theirs = real[key].items.properties.source.properties;
      expect(ours.git!.properties!.commit!.pattern).toBe(theirs.git.properties.commit.pattern);
      expect(ours.git!.properties!.url!.pattern).toBe(posix(theirs.git.properties.url.pattern));
      expect(ours.oci!.pattern).toBe(posix(theirs.oci.pattern));
      expect(ours.path!.maxLength).toBe(theirs.path.maxLength);
    }
    expect(template.skills!.maxItems).toBe(real.skills.maxItems);
    expect(template.plugins!.maxItems).toBe(real.plugins.maxItems);
  });
});

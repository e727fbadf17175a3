import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildValues } from '../../core/writes/compose.js';
import type { AgentSpec } from '../../core/types.js';
import { compileValuesSchema, schemaDeclares, valuesViolations } from '../../core/values-schema.js';
import { EMBEDDED_SCHEMA, EMBEDDED_SCHEMA_VERSION } from './embedded-schemas.js';
import { hasShared, needsShared, sharedPath } from '../../../test/support/shared-reference.js';

const label = { version: EMBEDDED_SCHEMA_VERSION, source: 'embedded' };
const check = (values: Record<string, unknown>): string[] => valuesViolations(EMBEDDED_SCHEMA, values, label);
const fullExample = JSON.parse(
  readFileSync(new URL('../../core/testdata/full-example.spec.json', import.meta.url), 'utf8'),
) as AgentSpec;
const base = { agent: { name: 'sre' }, modelConfig: { name: 'default-model-config' } };

describe('the embedded agent chart schema', () => {
  it('belongs to agent chart 0.5.2 and is JSON Schema 2020-12', () => {
    expect(EMBEDDED_SCHEMA_VERSION).toBe('0.5.2');
    expect(EMBEDDED_SCHEMA.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('compiles, frozen as it is', () => {
    expect(Object.isFrozen(EMBEDDED_SCHEMA)).toBe(true);
    expect(compileValuesSchema(EMBEDDED_SCHEMA, label).validate).toBeTypeOf('function');
  });

  it('does not declare toolset (0.5.2 predates it)', () => {
    expect(schemaDeclares(EMBEDDED_SCHEMA, 'toolset')).toBe(false);
  });

  it("accepts the project README's full example, its toolset left out of the check", () => {
    const values = buildValues(fullExample);
    expect(values.toolset).toBeDefined();
    expect(check(values)).toStrictEqual([]);
  });

  it('accepts every key agent-manager composes', () => {
    const values = buildValues({
      name: 'sre',
      modelConfig: 'default-model-config',
      displayName: 'x'.repeat(63),
      description: 'd',
      iconUrl: 'https://example.com/i.png',
      systemMessage: 'Be brief.',
      runtime: 'python',
      skills: {
        refs: ['ghcr.io/o/s:1'],
        gitRefs: [{ url: 'https://github.com/o/r', path: 'a', ref: 'main' }],
        gitAuthSecretName: 'token',
      },
      toolset: ['preset:read-only'],
      labels: { a: 'b' },
      annotations: { c: 'd' },
    });
    expect(check(values)).toStrictEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a name that is not a DNS-1123 label', { ...base, agent: { name: 'Bad Name' } }, '/agent/name'],
    ['a display name over 63 characters', { ...base, agent: { name: 'sre', displayName: 'x'.repeat(64) } }, '/agent/displayName'],
    ['a runtime outside go|python', { ...base, agent: { name: 'sre', runtime: 'rust' } }, '/agent/runtime'],
    ['an empty model config name', { ...base, modelConfig: { name: '' } }, '/modelConfig/name'],
    ['an unknown top-level key', { ...base, unknownKey: true }, '(root)'],
  ])('refuses %s at its path', (_label, values, path) => {
    const found = check(values);
    expect(found).toHaveLength(1);
    expect(found[0]!.startsWith(`${path}: `)).toBe(true);
  });

  it('names the unknown key', () => {
    expect(check({ ...base, unknownKey: true })).toStrictEqual(['(root): additional property "unknownKey" is not allowed']);
  });
});

// Agreement with the reference reconstruction of the 0.5.2 schema (read at run time
// from ../shared, never copied): both must judge every sample the same way.
const REFERENCE_FILE = 'reference/agent-chart/values.schema-0.5.2.reconstructed.json';
const REFERENCE = sharedPath(REFERENCE_FILE);
const haveReference = hasShared(REFERENCE_FILE);
const agreementTitle = needsShared('the embedded schema agrees with the reference 0.5.2 reconstruction', REFERENCE_FILE);

const samples: [string, Record<string, unknown>][] = [
  ['minimal values', base],
  ['empty values', {}],
  ["the README's full example", buildValues(fullExample)],
  ['an empty agent name (the release name applies)', { agent: { name: '' } }],
  ['a bad agent name', { agent: { name: 'Bad Name' } }],
  ['a 64-character agent name', { agent: { name: 'a'.repeat(64) } }],
  ['a 64-character display name', { agent: { displayName: 'x'.repeat(64) } }],
  ['runtime rust', { agent: { runtime: 'rust' } }],
  ['runtime go', { agent: { runtime: 'go' } }],
  ['an empty system message', { agent: { systemMessage: '' } }],
  ['an unknown agent key', { agent: { harness: 'kagent' } }],
  ['an empty model config name', { modelConfig: { name: '' } }],
  ['a model config name of the wrong type', { modelConfig: { name: 3 } }],
  ['an unknown top-level key', { unknownKey: 1 }],
  ['a toolset', { toolset: ['preset:none'] }],
  ['skills refs of the wrong type', { skills: { refs: [1] } }],
  ['free-form git refs', { skills: { gitRefs: [{ anything: true }, 'x'] } }],
  ['an unknown key in gitAuthSecretRef', { skills: { gitAuthSecretRef: { name: 'a', key: 'b' } } }],
  ['an unknown skills key', { skills: { oci: [] } }],
  [
    'the whole muster block',
    {
      muster: {
        enabled: true,
        serverRef: { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', namespace: 'agent-platform' },
        allowedHeaders: ['authorization'],
        toolNames: ['call_tool'],
        stsWellKnownUri: '',
      },
    },
  ],
  ['muster.enabled as a string', { muster: { enabled: 'yes' } }],
  ['an unknown serverRef key', { muster: { serverRef: { uid: 'x' } } }],
  ['an unknown muster key', { muster: { url: 'http://muster' } }],
  ['replicas 0', { replicas: 0 }],
  ['replicas -1', { replicas: -1 }],
  ['replicas 1.5', { replicas: 1.5 }],
  ['numeric and string resources', { resources: { requests: { cpu: 0.1, memory: '256Mi' }, limits: { cpu: '1' }, claims: [] } }],
  ['a boolean cpu request', { resources: { requests: { cpu: true } } }],
  ['a node selector', { nodeSelector: { 'kubernetes.io/os': 'linux' } }],
  ['a numeric node selector value', { nodeSelector: { zone: 1 } }],
  ['tolerations and extra tools', { tolerations: [{ key: 'x' }], extraTools: [{ type: 'McpServer' }] }],
  ['labels of the wrong type', { labels: { a: 1 } }],
  ['annotations as a list', { annotations: ['a'] }],
  ['an extra agent spec', { extraAgentSpec: { declarative: { stream: true } } }],
  ['global null', { global: null }],
  ['global as an object', { global: { identity: {} } }],
  ['global as a string', { global: 'x' }],
];

describe.skipIf(!haveReference)(agreementTitle, () => {
  // Read on first use, never at collection time, so a skip stays a skip.
  let reference: Record<string, unknown> | undefined;
  const byReference = (values: Record<string, unknown>): string[] => {
    reference ??= JSON.parse(readFileSync(REFERENCE, 'utf8')) as Record<string, unknown>;
    return valuesViolations(reference, values, { version: '0.5.2', source: 'reference' });
  };

  it.each(samples)('judges %s the same way', (_label, values) => {
    expect(check(values)).toStrictEqual(byReference(values));
  });

  it('samples both accepted and refused values', () => {
    const refused = samples.filter(([, values]) => byReference(values).length > 0).length;
    expect(refused).toBeGreaterThan(10);
    expect(samples.length - refused).toBeGreaterThan(10);
  });
});

import { describe, expect, it } from 'vitest';
import {
  compileValuesSchema,
  schemaErrorText,
  schemaSubject,
  valuesViolations,
} from './values-schema.js';

const S2020 = 'https://json-schema.org/draft/2020-12/schema';
const S07 = 'http://json-schema.org/draft-07/schema#';
const label = { version: '9.9.9', source: 'registry' };

/** A small closed schema in the shape of the agent chart's. */
const chartLike = {
  $schema: S2020,
  type: 'object',
  additionalProperties: false,
  properties: {
    agent: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', maxLength: 63, pattern: '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
        displayName: { type: 'string', maxLength: 63 },
        systemMessage: { type: 'string', minLength: 1 },
        runtime: { type: 'string', enum: ['go', 'python'] },
      },
    },
    modelConfig: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 } },
    },
    replicas: { type: 'integer', minimum: 0 },
    global: { type: ['object', 'null'] },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    mode: { const: 'strict' },
    url: { type: 'string', format: 'uri' },
  },
};

describe('valuesViolations', () => {
  it('returns no violations for valid values', () => {
    expect(valuesViolations(chartLike, { agent: { name: 'sre' }, modelConfig: { name: 'm' } })).toStrictEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown top-level key', { unknownKey: 1 }, '(root): additional property "unknownKey" is not allowed'],
    ['an unknown nested key', { agent: { nmae: 'x' } }, '/agent: additional property "nmae" is not allowed'],
    [
      'a name outside the pattern',
      { agent: { name: 'Bad Name' } },
      '/agent/name: "Bad Name" does not match the pattern "^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"',
    ],
    [
      'a display name over 63 characters',
      { agent: { displayName: 'x'.repeat(64) } },
      '/agent/displayName: must be at most 63 characters long (is 64)',
    ],
    ['a runtime outside the enum', { agent: { runtime: 'rust' } }, '/agent/runtime: "rust" is not one of "go", "python"'],
    ['an empty model config name', { modelConfig: { name: '' } }, '/modelConfig/name: must be at least 1 character long'],
    ['a missing required key', { modelConfig: {} }, '/modelConfig: missing required property "name"'],
    ['a wrong type', { replicas: 1.5 }, '/replicas: must be of type integer, not number'],
    ['a wrong type of a union', { global: 'x' }, '/global: must be of type object or null, not string'],
    ['a const mismatch', { mode: 'loose' }, '/mode: must be "strict"'],
    ['a minimum', { replicas: -1 }, '/replicas: must be >= 0'],
    [
      'a map key holding a slash (pointer tokens unescaped)',
      { labels: { 'app.kubernetes.io/name': 1 } },
      '/labels/app.kubernetes.io/name: must be of type string, not integer',
    ],
  ])('reports %s as one leaf line', (_label, values, want) => {
    expect(valuesViolations(chartLike, values)).toStrictEqual([want]);
  });

  it('counts length in characters, not UTF-16 units or bytes', () => {
    expect(valuesViolations(chartLike, { agent: { displayName: '🚀'.repeat(63) } })).toStrictEqual([]);
  });

  it('reports every violation, sorted', () => {
    expect(
      valuesViolations(chartLike, {
        zzz: true,
        agent: { runtime: 'rust', name: 'Bad Name' },
        modelConfig: { name: '' },
      }),
    ).toStrictEqual([
      '(root): additional property "zzz" is not allowed',
      '/agent/name: "Bad Name" does not match the pattern "^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"',
      '/agent/runtime: "rust" is not one of "go", "python"',
      '/modelConfig/name: must be at least 1 character long',
    ]);
  });

  it('shortens a long offending value in the message', () => {
    const [line] = valuesViolations(chartLike, { agent: { runtime: 'r'.repeat(500) } });
    expect(line!.length).toBeLessThan(140);
    expect(line).toContain('…');
  });

  it('ignores format assertions, as Helm does', () => {
    expect(valuesViolations(chartLike, { url: 'not a uri at all' })).toStrictEqual([]);
    const unknownFormat = { properties: { u: { type: 'string', format: 'no-such-format' } } };
    expect(valuesViolations(unknownFormat, { u: 'x' })).toStrictEqual([]);
  });

  it('keeps the leaf errors of oneOf and anyOf instead of the composite', () => {
    const schema = {
      $schema: S2020,
      properties: {
        a: { oneOf: [{ type: 'string' }, { type: 'number', minimum: 3 }] },
        b: { anyOf: [{ type: 'string', minLength: 2 }] },
      },
    };
    expect(valuesViolations(schema, { a: 1, b: 'x' })).toStrictEqual([
      '/a: must be >= 3',
      '/a: must be of type string, not integer',
      '/b: must be at least 2 characters long',
    ]);
  });

  it('keeps the oneOf error when several branches match (it is the leaf then)', () => {
    const schema = { properties: { a: { oneOf: [{ type: 'number' }, { minimum: 0 }] } } };
    expect(valuesViolations(schema, { a: 1 })).toStrictEqual(['/a: must match exactly one schema in oneOf']);
  });

  it('de-duplicates identical lines', () => {
    const schema = { properties: { a: { allOf: [{ type: 'string' }, { type: 'string' }] } } };
    expect(valuesViolations(schema, { a: 1 })).toStrictEqual(['/a: must be of type string, not integer']);
  });

  it.each([
    ['2020-12 applies 2020-12 keywords', S2020, ['(root): must have property b when property a is present']],
    ['2019-09 applies 2019-09 keywords', 'https://json-schema.org/draft/2019-09/schema', ['(root): must have property b when property a is present']],
    ['draft-07 does not know dependentRequired', S07, []],
    ['no $schema is draft-07', undefined, []],
  ])('chooses the dialect by $schema: %s', (_label, dialect, want) => {
    const schema = { ...(dialect ? { $schema: dialect } : {}), dependentRequired: { a: ['b'] } };
    expect(valuesViolations(schema, { a: 1 })).toStrictEqual(want);
  });

  it('reports a schema that does not compile as its single violation', () => {
    expect(valuesViolations({ type: 'no-such-type' }, {}, label)).toStrictEqual([
      expect.stringMatching(/^agent chart schema 9\.9\.9 \(registry\) does not compile: schema is invalid: data\/type /),
    ]);
  });

  it('reports an unsupported dialect as a schema that does not compile', () => {
    const [line] = valuesViolations({ $schema: 'http://json-schema.org/draft-04/schema#' }, {}, label);
    expect(line).toMatch(/^agent chart schema 9\.9\.9 \(registry\) does not compile: /);
  });
});

describe('the toolset rule', () => {
  const closed = { $schema: S2020, type: 'object', additionalProperties: false, properties: { agent: { type: 'object' } } };
  const declaring = {
    ...closed,
    properties: { ...closed.properties, toolset: { type: ['array', 'null'], items: { type: 'string' } } },
  };

  it('leaves toolset out of what a schema that does not declare it sees', () => {
    const values = { agent: {}, toolset: ['preset:read-only'] };
    expect(valuesViolations(closed, values)).toStrictEqual([]);
    expect(schemaSubject(closed, values)).toStrictEqual({ agent: {} });
    expect(values.toolset).toStrictEqual(['preset:read-only']);
  });

  it('still reports the other violations of such values', () => {
    expect(valuesViolations(closed, { toolset: ['x'], extra: 1 })).toStrictEqual([
      '(root): additional property "extra" is not allowed',
    ]);
  });

  it('validates toolset with a schema that declares it', () => {
    expect(valuesViolations(declaring, { toolset: ['preset:none'] })).toStrictEqual([]);
    expect(valuesViolations(declaring, { toolset: [1] })).toStrictEqual(['/toolset/0: must be of type string, not integer']);
  });

  it('hands values without a toolset to the schema unchanged', () => {
    const values = { agent: {} };
    expect(schemaSubject(closed, values)).toBe(values);
  });
});

describe('compileValuesSchema', () => {
  it('compiles a schema object once and reuses the validator', () => {
    const schema = { type: 'object' };
    const first = compileValuesSchema(schema, label).validate;
    expect(first).toBeTypeOf('function');
    expect(compileValuesSchema(schema, label).validate).toBe(first);
    valuesViolations(schema, {});
    expect(compileValuesSchema(schema, label).validate).toBe(first);
  });

  it('compiles an equal but distinct schema object on its own', () => {
    const a = compileValuesSchema({ type: 'object' }, label).validate;
    expect(compileValuesSchema({ type: 'object' }, label).validate).not.toBe(a);
  });

  it('accepts two schemas with the same $id (two chart versions)', () => {
    const v1 = { $id: 'https://example.com/agent.json', type: 'object', properties: { a: { type: 'string' } } };
    const v2 = { $id: 'https://example.com/agent.json', type: 'object', properties: { a: { type: 'number' } } };
    expect(valuesViolations(v1, { a: 'x' })).toStrictEqual([]);
    expect(valuesViolations(v2, { a: 1 })).toStrictEqual([]);
  });

  it('names the version and source that answered in a compile error', () => {
    const schema = { type: 'no-such-type' };
    expect(compileValuesSchema(schema, { version: '0.5.2', source: 'embedded' }).compileError).toMatch(
      /^agent chart schema 0\.5\.2 \(embedded\) does not compile: /,
    );
  });
});

describe('schemaErrorText', () => {
  it('joins the violations after the version and source', () => {
    expect(schemaErrorText('0.5.2', 'embedded', ['/agent/runtime: x', '(root): y'])).toBe(
      'values do not satisfy the agent chart schema 0.5.2 (embedded): /agent/runtime: x; (root): y',
    );
  });
});

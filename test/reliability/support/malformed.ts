/**
 * fast-check arbitraries of requests that must be refused: a valid base with exactly
 * one poison, each poison chosen so that some rule of the service or its input schema
 * refuses it whatever else the request says. A poison that would happen to be valid
 * (a generated name that is a DNS label, a selector that parses) is filtered out with
 * the service's own predicates, so a 2xx on any of these is a real defect, not noise.
 *
 * Kinds: bad names (huge ones too), unknown fields (`__proto__`, `constructor`, …),
 * wrong JSON types, bad toolsets, the removed `toolNames`, unknown ModelConfigs,
 * unmanaged namespaces, bad skills, chart-schema violations (huge display names), deep
 * nesting, bodies over 1 MiB, non-object and unparsable bodies.
 */
import fc from 'fast-check';
import { nameViolation } from '../../../src/core/names.js';
import { skillsViolations } from '../../../src/core/skills/skill-input.js';
import { toolsetViolation } from '../../../src/core/toolset/toolset-grammar.js';
import { ManagedNamespaces } from '../../../src/service/namespaces.js';

export type Json = Record<string, unknown>;
/** A body: a JSON object, or raw text/bytes sent as they are. */
export type Body = Json | string | Uint8Array;

export interface Poisoned {
  /** What was broken, for the failure message. */
  kind: string;
  body: Body;
}

/** The fields each operation's input schema accepts. */
export const FIELDS = {
  create: ['name', 'namespace', 'displayName', 'description', 'systemMessage', 'modelConfig', 'iconUrl', 'runtime', 'skills', 'toolset', 'toolNames', 'labels', 'annotations'],
  update: ['name', 'namespace', 'displayName', 'description', 'systemMessage', 'modelConfig', 'iconUrl', 'runtime', 'skills', 'toolset', 'toolNames', 'labels', 'annotations', 'force'],
  validate: ['name', 'namespace', 'displayName', 'description', 'systemMessage', 'modelConfig', 'iconUrl', 'runtime', 'skills', 'toolset', 'toolNames', 'labels', 'annotations', 'update', 'force'],
  ref: ['name', 'namespace'],
  delete: ['name', 'namespace', 'force'],
} as const;
export type Shape = keyof typeof FIELDS;

const MANAGED = new ManagedNamespaces('kagent', ['tenant']);

/** `obj` with `key` set as an own property, even `__proto__` (as JSON.parse would make it). */
export function withKey(obj: Json, key: string, value: unknown): Json {
  const out = { ...obj };
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A JSON value that is never null (null counts as absent, which may make a request valid). */
const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.string({ maxLength: 40 }),
  fc.array(fc.integer(), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

/** A string of `length` characters, cheaply (fast-check need not shrink megabytes). */
const longString = (min: number, max: number): fc.Arbitrary<string> =>
  fc.tuple(fc.integer({ min, max }), fc.constantFrom('x', 'ä', '€', '🙂', '-', 'A')).map(([n, c]) => c.repeat(n));

/** Names an agent may not have. */
export const badName: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', 'A', '-a', 'a-', 'a_b', 'a.b', 'a b', '..', '../etc', 'ü', 'a\n', '__proto__', 'constructor'),
  longString(64, 200_000).map((s) => `a${s.replace(/[^a-z]/g, 'b')}`),
).filter((name) => nameViolation(name) !== undefined);

const unknownKey = (shape: Shape): fc.Arbitrary<string> => fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'values', 'spec', ''),
  fc.string({ minLength: 1, maxLength: 24 }),
).filter((key) => !(FIELDS[shape] as readonly string[]).includes(key));

/** A value of the wrong JSON type for `field` (never null, never the right type). */
function wrongType(field: string): fc.Arbitrary<unknown> {
  const notString = fc.oneof(
    fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 2 }),
  );
  switch (field) {
    case 'toolset':
    case 'toolNames':
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
        fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string())), { minLength: 1, maxLength: 3 }));
    case 'labels':
    case 'annotations':
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }),
        fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor'), fc.string({ minLength: 1, maxLength: 10 })), fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string()), fc.dictionary(fc.string(), fc.string())))
          .map(([k, v]) => withKey({}, k, v)));
    case 'skills':
      return fc.oneof(fc.string(), fc.integer(), fc.array(fc.string(), { maxLength: 2 }),
        fc.constantFrom({ refs: 'ghcr.io/a/b:1' }, { gitRefs: {} }, { gitRefs: [{}] }, { gitRefs: [{ url: 1 }] }, { refs: [1] }, { extra: true }));
    case 'force':
    case 'update':
      return fc.oneof(fc.string(), fc.integer(), fc.array(fc.boolean(), { maxLength: 2 }));
    default:
      return notString;
  }
}

const badToolset: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant([]),
  fc.array(fc.constantFrom('preset:read-only', 'server:a', 'tool:x_y'), { minLength: 33, maxLength: 60 }),
  fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('toolset:shared', 'label:x', 'preset:', 'preset:a b', 'preset:a,b', 'tool:x\n', 'Preset:x')), { minLength: 1, maxLength: 4 }),
).filter((toolset) => toolsetViolation(toolset, { required: false }) !== undefined);

/** Nested arrays or objects `depth` deep, as raw JSON text. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The JSON text of `body` with `field` replaced by the raw JSON text `raw`. */
function spliced(body: Json, field: string, raw: string): string {
  const text = JSON.stringify(withKey(body, field, '\u0000splice\u0000'));
  return text.replace('"\\u0000splice\\u0000"', raw);
}

export interface PoisonOptions {
  /** The valid base request. */
  base: Json;
  /** The input shape, for the unknown-field and wrong-type poisons. */
  shape: Shape;
  /** Fields fixed by the path (REST PATCH/DELETE): never poisoned in the body. */
  pathFields?: readonly string[];
  /** Deepest nesting to generate. */
  maxDepth: number;
  /** Include REST-only poisons (raw text bodies, > 1 MiB). */
  raw: boolean;
}

/** One refused request of `options.shape`. */
export function poisoned(options: PoisonOptions): fc.Arbitrary<Poisoned> {
  const { base, shape, maxDepth } = options;
  const fields = (FIELDS[shape] as readonly string[]).filter((f) => !(options.pathFields ?? []).includes(f));
  const has = (f: string) => fields.includes(f);
  const set = (kind: string) => (entry: [string, unknown]): Poisoned => ({ kind: `${kind} ${entry[0]}`, body: withKey(base, entry[0], entry[1]) });
  const arbs: fc.Arbitrary<Poisoned>[] = [
    fc.tuple(unknownKey(shape), jsonish).map(([k, v]) => ({ kind: `unknown field ${JSON.stringify(k)}`, body: withKey(base, k, v) })),
    fc.constantFrom(...fields).chain((f) => wrongType(f).map((v) => [f, v] as [string, unknown])).map(set('wrong type of')),
    // Every field is typed and every object `.strict()`, so a deep value is refused wherever it sits.
    fc.tuple(fc.integer({ min: 1, max: maxDepth }), fc.constantFrom<'array' | 'object'>('array', 'object'), fc.constantFrom(...fields, 'zz-unknown'))
      .map(([depth, kind, f]) => ({ kind: `${depth}-deep ${kind} in ${f}`, body: spliced(base, f, deepJson(depth, kind)) })),
  ];
  if (has('name')) arbs.push(badName.map((n) => ({ kind: 'bad name', body: withKey(base, 'name', n) })));
  if (has('toolset')) arbs.push(badToolset.map((t) => ({ kind: 'bad toolset', body: withKey(base, 'toolset', t) })));
  if (has('toolNames')) arbs.push(fc.array(fc.string(), { maxLength: 3 }).map((t) => ({ kind: 'removed toolNames', body: withKey(base, 'toolNames', t) })));
  if (has('namespace')) {
    arbs.push(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('default', 'kube-system', 'KAGENT', ' kagent', 'tenant '))
      .filter((ns) => refuses(() => MANAGED.resolve(ns))).map((ns) => ({ kind: 'unmanaged namespace', body: withKey(base, 'namespace', ns) })));
  }
  if (has('modelConfig')) {
    arbs.push(fc.string({ maxLength: 30 }).filter((m) => !['default-model-config', 'qwen3-8-27b'].includes(m))
      .map((m) => ({ kind: 'unknown modelConfig', body: withKey(base, 'modelConfig', m) })));
  }
  if (has('skills')) {
    arbs.push(fc.oneof(fc.constantFrom('ftp://x', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)', ''), fc.string({ maxLength: 20 }))
      .filter((url) => skillsViolations({ gitRefs: [{ url }] }).length > 0)
      .map((url) => ({ kind: 'bad git skill', body: withKey(base, 'skills', { gitRefs: [{ url }] }) })));
  }
  if (has('displayName')) {
    arbs.push(longString(64, 300_000).map((s) => ({ kind: 'huge displayName', body: withKey(base, 'displayName', s) })));
  }
  if (has('runtime')) {
    arbs.push(fc.string({ maxLength: 12 }).filter((r) => !['go', 'python', ''].includes(r.trim()) && r.trim() !== '')
      .map((r) => ({ kind: 'unknown runtime', body: withKey(base, 'runtime', r) })));
  }
  if (options.raw) arbs.push(rawBody(base));
  return fc.oneof(...arbs);
}

/** Bodies that are not a JSON object at all. */
function rawBody(base: Json): fc.Arbitrary<Poisoned> {
  const text = JSON.stringify(base);
  return fc.oneof(
    fc.constantFrom('', ' ', '\n\t', 'null', 'true', '1', '"text"', '[]', '[{}]', '{', '{"name":', '{}}', '{"a":1,}', "{'a':1}", 'NaN', '\u0000')
      .map((t) => ({ kind: 'not a JSON object', body: t })),
    fc.nat({ max: text.length - 1 }).map((cut) => ({ kind: 'truncated JSON', body: text.slice(0, cut) })),
    fc.tuple(fc.string({ minLength: 1, maxLength: 10 })).map(([junk]) => ({ kind: 'trailing garbage', body: `${text}${junk}` }))
      .filter((p) => !parses(p.body as string)),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'random bytes', body: bytes }))
      .filter((p) => !isJsonObject(Buffer.from(p.body as Uint8Array).toString('utf8'))),
    fc.jsonValue({ maxDepth: 3 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
      .map((v) => ({ kind: 'JSON that is not an object', body: JSON.stringify(v) })),
    fc.integer({ min: (1 << 20) + 1, max: (1 << 20) + 300_000 }).map((n) => ({ kind: 'body over 1 MiB', body: `{"description":"${'x'.repeat(n)}"}` })),
  );
}

function refuses(check: () => unknown): boolean {
  try {
    check();
    return false;
  } catch {
    return true;
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

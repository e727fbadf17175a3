/**
 * The structural-schema walk: pruning, nulls, defaults, and each kind of violation with
 * the real apiextensions message text.
 */
import { describe, expect, it } from 'vitest';
import { fieldErrorString } from '../api/field-errors.js';
import { anyValue, int, keyedList, list, obj, oneOf, str, summarised, duration } from './schema.js';
import { applyStructuralSchema } from './structural.js';

const schema = obj({
  spec: obj({
    interval: duration(),
    name: str({ minLength: 1, maxLength: 5 }),
    kind: oneOf(['A', 'B'], { default: 'A' }),
    count: int({ minimum: 1 }),
    values: anyValue(),
    detail: summarised(),
    items: keyedList('name', obj({ name: str(), n: int() })),
    tags: list(str(), { maxItems: 2 }),
  }, { required: ['interval'] }),
});

const run = (value: unknown) => {
  const result = applyStructuralSchema(schema, value);
  return { value, pruned: result.pruned, errors: result.errors.map(fieldErrorString) };
};

describe('applyStructuralSchema', () => {
  it('prunes unknown fields and reports their paths', () => {
    const r = run({ spec: { interval: '1m', junk: 1, items: [{ name: 'a', extra: true }] }, top: 1 });
    expect(r.value).toEqual({ spec: { interval: '1m', kind: 'A', items: [{ name: 'a' }] } });
    expect(r.pruned).toEqual(['spec.junk', 'spec.items[0].extra', 'top']);
  });

  it('keeps everything under preserve-unknown-fields and summarised subtrees', () => {
    const r = run({ spec: { interval: '1m', values: { a: { b: [1] } }, detail: { whatever: true } } });
    expect(r.value).toMatchObject({ spec: { values: { a: { b: [1] } }, detail: { whatever: true } } });
    expect(r.pruned).toEqual([]);
  });

  it('drops nulls of non-nullable fields and fills defaults', () => {
    const r = run({ spec: { interval: '1m', name: null } });
    expect(r.value).toEqual({ spec: { interval: '1m', kind: 'A' } });
  });

  it.each([
    ['a wrong type', { interval: 5 }, 'spec.interval: Invalid value: "integer": spec.interval in body must be of type string: "integer"'],
    ['a missing required field', {}, 'spec.interval: Required value'],
    ['an unsupported enum value', { interval: '1m', kind: 'C' }, 'spec.kind: Unsupported value: "C": supported values: "A", "B"'],
    ['a pattern mismatch', { interval: 'soon' }, "spec.interval: Invalid value: \"soon\": spec.interval in body should match '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$'"],
    ['a too short string', { interval: '1m', name: '' }, 'spec.name: Invalid value: "": spec.name in body should be at least 1 chars long'],
    ['a too long string', { interval: '1m', name: 'toolong' }, 'spec.name: Too long: may not be more than 5 bytes'],
    ['a number below minimum', { interval: '1m', count: 0 }, 'spec.count: Invalid value: 0: spec.count in body should be greater than or equal to 1'],
    ['too many items', { interval: '1m', tags: ['a', 'b', 'c'] }, 'spec.tags: Too many: 3: must have at most 2 items'],
    ['a duplicate map-list key', { interval: '1m', items: [{ name: 'x' }, { name: 'x' }] }, 'spec.items[1]: Duplicate value: {"name":"x"}'],
    ['a fractional integer', { interval: '1m', count: 1.5 }, 'spec.count: Invalid value: "number": spec.count in body must be of type integer: "number"'],
  ])('reports %s with the real message', (_name, spec, message) => {
    expect(run({ spec }).errors).toEqual([message]);
  });
});

import { describe, expect, it } from 'vitest';
import { asList, asObject, numberOr, optionalString, stringOr, stringsOf } from './json.js';

describe('sandbox JSON narrowing', () => {
  it('a non-object reads as an empty object, an object as itself', () => {
    const o = { a: 1 };
    expect(asObject(o)).toBe(o);
    for (const v of [null, undefined, [], 'x', 1]) expect(asObject(v)).toEqual({});
  });

  it("stringOr keeps '' and optionalString reads it as absent", () => {
    expect(stringOr('', 'x')).toBe('');
    expect(stringOr(1, 'x')).toBe('x');
    expect(optionalString('')).toBeUndefined();
    expect(optionalString('a')).toBe('a');
    expect(optionalString(1)).toBeUndefined();
  });

  it('numberOr takes any number and falls back for anything else', () => {
    expect(numberOr(2.5, 0)).toBe(2.5);
    expect(numberOr('2', 7)).toBe(7);
  });

  it('lists: a non-array is empty; stringsOf keeps only strings', () => {
    expect(asList('x')).toEqual([]);
    expect(stringsOf(['a', 1, null, ''])).toEqual(['a', '']);
    expect(stringsOf({})).toEqual([]);
  });
});

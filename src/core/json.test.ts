import { describe, expect, it } from 'vitest';
import {
  asList, asObject, finiteNumberOr, isJsonObject, objectList, optionalString, stringField, stringList, stringMap,
  stringOr, wholeNumber,
} from './json.js';

describe('JSON narrowing', () => {
  it('only a non-null, non-array object is a JSON object; anything else reads as an empty one', () => {
    const o = { a: 1 };
    expect(asObject(o)).toBe(o);
    for (const v of [null, undefined, [], 'x', 3, true]) {
      expect(isJsonObject(v)).toBe(false);
      expect(asObject(v)).toEqual({});
    }
  });

  it('an optional string is absent when empty or not a string', () => {
    expect(optionalString('a')).toBe('a');
    for (const v of ['', undefined, null, 1, ['a'], {}]) expect(optionalString(v)).toBeUndefined();
  });

  it('stringField keeps an empty string and reads a non-string as absent', () => {
    expect(stringField('')).toBe('');
    expect(stringField('a')).toBe('a');
    for (const v of [undefined, null, 1, {}, ['a']]) expect(stringField(v)).toBeUndefined();
  });

  it('stringMap keeps the string entries of an object and reads anything else as {}', () => {
    expect(stringMap({ a: 'x', b: 1, c: '', d: null })).toEqual({ a: 'x', c: '' });
    for (const v of [undefined, 'x', ['a'], 3]) expect(stringMap(v)).toEqual({});
  });

  it('stringOr keeps an empty string and falls back only for a non-string', () => {
    expect(stringOr('', 'x')).toBe('');
    expect(stringOr('a', 'x')).toBe('a');
    for (const v of [undefined, null, 1, {}]) expect(stringOr(v, 'x')).toBe('x');
  });

  it('numbers: finiteNumberOr refuses NaN and Infinity, wholeNumber refuses fractions', () => {
    expect(finiteNumberOr(2.5, 0)).toBe(2.5);
    for (const v of [Number.NaN, Infinity, '3', null]) expect(finiteNumberOr(v, 0)).toBe(0);
    expect(wholeNumber(3)).toBe(3);
    for (const v of [2.5, '3', Number.NaN, undefined]) expect(wholeNumber(v)).toBeUndefined();
  });

  it('lists keep only the items of the named kind; a non-list is empty or absent as documented', () => {
    const l = [1, 'a'];
    expect(asList(l)).toBe(l);
    expect(asList({})).toEqual([]);
    expect(objectList([{ a: 1 }, null, [], 'x'])).toEqual([{ a: 1 }]);
    expect(objectList('x')).toEqual([]);
    expect(stringList(['a', 1, '', null])).toEqual(['a', '']);
    expect(stringList('a')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { jsonKind, wrongTypeText } from './type-errors.js';

describe('the wording of a value of the wrong type', () => {
  it('names the kind of value given, and a number JSON cannot hold as out of range', () => {
    expect(wrongTypeText('dryRun', 'boolean', 'yes')).toBe('invalid JSON: field "dryRun" must be a boolean, not a string');
    expect(wrongTypeText('revision', 'int', 1.5)).toBe('invalid JSON: field "revision" must be a whole number, not 1.5');
    expect(wrongTypeText('wait', 'number', JSON.parse('1e400'))).toBe('invalid JSON: field "wait" must be a number, not a number out of range');
    expect(jsonKind(null)).toBe('null');
    expect(jsonKind([])).toBe('an array');
  });
});

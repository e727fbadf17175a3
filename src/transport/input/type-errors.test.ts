import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueText, jsonKind, wrongTypeText } from './type-errors.js';

describe('the wording of a value of the wrong type', () => {
  it('names the kind of value given, and a number JSON cannot hold as out of range', () => {
    expect(wrongTypeText('dryRun', 'boolean', 'yes')).toBe('invalid JSON: field "dryRun" must be a boolean, not a string');
    expect(wrongTypeText('revision', 'int', 1.5)).toBe('invalid JSON: field "revision" must be a whole number, not 1.5');
    expect(wrongTypeText('wait', 'number', JSON.parse('1e400'))).toBe('invalid JSON: field "wait" must be a number, not a number out of range');
    expect(jsonKind(null)).toBe('null');
    expect(jsonKind([])).toBe('an array');
  });
});

describe('issueText', () => {
  const issueOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues[0]!;

  it('names the allowed values and what was given', () => {
    expect(issueText(issueOf(z.enum(['apply', 'commit']), 'yolo'), 'yolo')).toBe('must be one of "apply", "commit", not "yolo"');
    expect(issueText(issueOf(z.literal('x'), 'y'), 'y')).toBe('must be "x", not "y"');
  });

  it('names the bound in the value\'s own measure', () => {
    expect(issueText(issueOf(z.number().min(1), 0), 0)).toBe('must be at least 1, not 0');
    expect(issueText(issueOf(z.number().gt(0), 0), 0)).toBe('must be more than 0, not 0');
    expect(issueText(issueOf(z.string().max(3), 'abcdef'), 'abcdef')).toBe('must be at most 3 characters, not 6 characters');
    expect(issueText(issueOf(z.array(z.string()).min(1), []), [])).toBe('must be at least 1 items, not 0 items');
  });

  it('quotes at most 64 characters of a long value', () => {
    const long = 'x'.repeat(100);
    expect(issueText(issueOf(z.enum(['a']), long), long)).toBe(`must be "a", not "${'x'.repeat(64)}…"`);
  });
});

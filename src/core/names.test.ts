import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { isObjectName, MAX_NAME_BYTES, nameViolation, validateName } from './names.js';

const label = (n: string): string =>
  `name "${n}" must be a DNS-1123 label: lowercase letters, digits and '-', starting and ending alphanumeric`;

describe('nameViolation', () => {
  it.each([
    ['one letter', 'a'],
    ['one digit', '7'],
    ['letters, digits and dashes', 'sre-bot-2'],
    ['starting with a digit', '1st-agent'],
    ['inner double dash', 'a--b'],
    ['exactly 63 bytes', 'a'.repeat(63)],
  ])('accepts %s', (_name, input) => {
    expect(nameViolation(input)).toBeUndefined();
  });

  it.each([
    ['empty', '', 'name is required'],
    ['undefined', undefined, 'name is required'],
    ['null', null, 'name is required'],
    ['64 ASCII bytes', 'a'.repeat(64), `name "${'a'.repeat(64)}" is longer than 63 characters`],
    // 32 × "ü" is 32 characters but 64 bytes: Go's len() counts bytes.
    ['63 characters but more than 63 bytes', 'ü'.repeat(32), `name "${'ü'.repeat(32)}" is longer than 63 characters`],
    ['the length check comes before the grammar', 'A'.repeat(64), `name "${'A'.repeat(64)}" is longer than 63 characters`],
    ['upper case', 'Bad', label('Bad')],
    ['a space', 'Bad Name', label('Bad Name')],
    ['a leading dash', '-a', label('-a')],
    ['a trailing dash', 'a-', label('a-')],
    ['a dot', 'a.b', label('a.b')],
    ['an underscore', 'a_b', label('a_b')],
    ['a trailing newline ($ is end of text)', 'abc\n', 'name "abc\\n" must be a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending alphanumeric'],
    ['a leading space', ' abc', label(' abc')],
    ['non-ASCII letters', 'grün', label('grün')],
    ['a quote, escaped as Go %q does', 'a"b', 'name "a\\"b" must be a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending alphanumeric'],
    ['a NBSP, escaped as Go %q does', 'a\u00a0b', 'name "a\\u00a0b" must be a DNS-1123 label: lowercase letters, digits and \'-\', starting and ending alphanumeric'],
  ])('refuses %s', (_name, input, want) => {
    expect(nameViolation(input)).toBe(want);
  });

  it('caps names at 63 bytes', () => {
    expect(MAX_NAME_BYTES).toBe(63);
  });
});

describe('validateName', () => {
  it('passes a valid name', () => {
    expect(() => validateName('sre-bot')).not.toThrow();
  });

  it('throws invalid_request with the sentinel prefix', () => {
    let err: unknown;
    try {
      validateName('Bad Name');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    const appErr = err as AppError;
    expect(appErr.code).toBe('invalid_request');
    expect(appErr.status).toBe(400);
    expect(appErr.detail).toBe(label('Bad Name'));
    expect(appErr.message).toBe(`invalid request: ${label('Bad Name')}`);
  });

  it('says a missing name is required', () => {
    expect(() => validateName('')).toThrow('invalid request: name is required');
  });
});

describe('isObjectName', () => {
  it.each([
    ['an agent name', 'sre-bot'],
    ['a dotted subdomain', 'sre.bot-1'],
    ['253 characters', `${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(61)],
  ])('is true for %s', (_case, name) => {
    expect(isObjectName(name)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['a slash', 'a/b'],
    ['uppercase', 'Sre'],
    ['a leading dot', '.sre'],
    ['254 characters', 'a'.repeat(254)],
  ])('is false for %s', (_case, name) => {
    expect(isObjectName(name)).toBe(false);
  });
});

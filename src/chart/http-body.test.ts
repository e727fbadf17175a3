import { describe, expect, it } from 'vitest';
import { quotable } from './http-body.js';

describe('quotable', () => {
  it('keeps printable text as it is', () => {
    expect(quotable('{"errors":[{"code":"NAME_UNKNOWN","message":"repository name not known"}]}'))
      .toBe('{"errors":[{"code":"NAME_UNKNOWN","message":"repository name not known"}]}');
  });

  it('replaces control and non-printable bytes and folds whitespace', () => {
    expect(quotable('Unexpected token \u0000\u0001\ufffd,\n\t "\u001b[31m" is not valid JSON'))
      .toBe('Unexpected token ??�, "?[31m" is not valid JSON');
  });

  it('cuts long text with an ellipsis', () => {
    expect(quotable('x'.repeat(500), 10)).toBe('xxxxxxxxxx…');
  });
});

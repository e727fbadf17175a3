import { gzipSync } from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { CODINGS, contentTypeProblem, decompressor } from './json-content.js';

describe('the JSON body content rules', () => {
  it('decodes x-gzip as gzip (RFC 9110 §8.4.1.3) and knows no other coding than those it names', async () => {
    const decoder = decompressor('x-gzip')!;
    decoder.end(gzipSync('{"a":1}'));
    expect((await buffer(decoder)).toString()).toBe('{"a":1}');
    expect(decompressor('compress')).toBeUndefined();
    expect(CODINGS).toEqual(expect.arrayContaining(['gzip', 'deflate', 'br']));
  });

  it('takes JSON in UTF-8 only', () => {
    expect(contentTypeProblem('application/json; charset=UTF-8')).toBeUndefined();
    expect(contentTypeProblem('application/json; charset=iso-8859-1')).toContain('a JSON body is UTF-8 (RFC 8259)');
    expect(contentTypeProblem('text/plain')).toContain('the body must be JSON');
  });
});

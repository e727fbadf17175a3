import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from './frontmatter.js';

describe('parseFrontmatter', () => {
  it('keeps the string values and drops the others', () => {
    expect(parseFrontmatter('---\nname: a\ndescription: b c\nlist: [1]\ncount: 3\nflag: true\n---\nrest')).toEqual({ name: 'a', description: 'b c' });
  });

  it.each([
    ['no frontmatter', '# just markdown\n'],
    ['an unterminated block', '---\nname: unterminated\n'],
    ['a fence that is not the first line', '\n---\nname: late\n---\n'],
    ['YAML that does not parse', '---\nname: [unclosed\n---\n'],
    ['a list instead of a mapping', '---\n- a\n- b\n---\n'],
    ['an empty block', '---\n---\n'],
    ['an empty file', ''],
  ])('is empty for %s', (_case, text) => {
    expect(parseFrontmatter(text)).toEqual({});
  });

  it('strips a byte order mark before the opening fence', () => {
    expect(parseFrontmatter('\ufeff---\nname: bom\n---\n')).toEqual({ name: 'bom' });
  });

  it('reads files with CRLF line ends', () => {
    expect(parseFrontmatter('---\r\nname: crlf\r\ndescription: windows\r\n---\r\nbody')).toEqual({ name: 'crlf', description: 'windows' });
  });

  it('keeps block scalars as written (callers trim)', () => {
    expect(parseFrontmatter('---\ndescription: |\n  Operates things.\n---\n')).toEqual({ description: 'Operates things.\n' });
  });

  it('stops at the first closing fence', () => {
    expect(parseFrontmatter('---\nname: first\n---\n---\nname: second\n---\n')).toEqual({ name: 'first' });
  });

  it('survives an alias bomb without expanding it', () => {
    const bomb = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`);
    bomb.push('name: bomb', '---');
    expect(parseFrontmatter(bomb.join('\n'))).toEqual({});
  });
});

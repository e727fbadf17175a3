import { describe, expect, it } from 'vitest';
import { inputShapeProblem, MAX_INPUT_DEPTH } from './input-limits.js';

const nested = (levels: number, open: string, close: string): string => `${open.repeat(levels)}1${close.repeat(levels)}`;

describe('inputShapeProblem', () => {
  it.each([
    ['a flat create body', { name: 'sre', modelConfig: 'm', toolset: ['preset:none'], labels: { a: 'b' } }],
    ['a gitRef inside skills', { skills: { gitRefs: [{ url: 'https://github.com/o/r' }] } }],
    ['a "__proto__" key at the top level (the strict schema names it)', JSON.parse('{"__proto__":{"a":1}}')],
    ['a "constructor" key in a map', { labels: { constructor: 'x' } }],
    ['exactly 64 levels', JSON.parse(`{"a":${nested(MAX_INPUT_DEPTH - 1, '[', ']')}}`)],
    ['scalars and null', { a: null, b: 1, c: 'x', d: true }],
    ['text beyond the Basic Multilingual Plane (a whole surrogate pair)', JSON.parse('{"description":"\\ud83d\\ude00 ok"}')],
  ])('finds nothing wrong with %s', (_case, input) => {
    expect(inputShapeProblem(input)).toBeUndefined();
  });

  it.each([
    ['65 levels of lists', `{"zz":${nested(MAX_INPUT_DEPTH, '[', ']')}}`, 'zz', ' nests objects and lists deeper than 64 levels'],
    ['100,000 levels of objects', `{"ok":1,"deep":${nested(100_000, '{"a":', '}')}}`, 'deep', ' nests objects and lists deeper than 64 levels'],
    ['"__proto__" in a map', '{"labels":{"a":"b","__proto__":{"x":"y"}}}', 'labels.__proto__', ': "__proto__" is not accepted as a key'],
    ['"__proto__" in a list item', '{"skills":{"gitRefs":[{"url":"u"},{"__proto__":"x"}]}}', 'skills.gitRefs[1].__proto__', ': "__proto__" is not accepted as a key'],
    ['a lone high surrogate', '{"description":"\\ud800x"}', 'description', ' holds a lone UTF-16 surrogate, which is not Unicode text'],
    ['a lone low surrogate in a list', '{"toolset":["ok","\\udc00"]}', 'toolset[1]', ' holds a lone UTF-16 surrogate, which is not Unicode text'],
    ['a lone surrogate in a key', '{"labels":{"\\ud800":"v"}}', 'labels', ' has a key with a lone UTF-16 surrogate'],
  ])('names the field of %s', (_case, json, field, reason) => {
    expect(inputShapeProblem(JSON.parse(json))).toEqual({ field, reason });
  });

  it('names the first problem in field order', () => {
    const input = JSON.parse(`{"first":{"__proto__":1},"second":${nested(100, '[', ']')}}`);
    expect(inputShapeProblem(input)?.field).toBe('first.__proto__');
  });
});

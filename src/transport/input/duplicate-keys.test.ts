import { describe, expect, it } from 'vitest';
import { duplicateKey } from './duplicate-keys.js';

describe('duplicateKey', () => {
  it.each([
    ['{"dryRun": true, "dryRun": false}', 'dryRun'],
    ['{"labels": {"team": "a", "team": "b"}}', 'labels.team'],
    ['{"skills": {"refs": [{"name": "x"}, {"name": "y", "name": "z"}]}}', 'skills.refs[1].name'],
    ['{"a": 1, "\\u0061": 2}', 'a'],
    ['{"x": "\\"a\\": 1, \\"a\\"", "x": 2}', 'x'],
    ['[[{"k": [1, {"q": 1}], "k": 0}]]', '[0][0].k'],
  ])('names the first key given twice in %s', (text, path) => {
    JSON.parse(text);
    expect(duplicateKey(text)).toBe(path);
  });

  it.each([
    '{"a": {"b": 1}, "b": {"a": 1}}',
    '[{"a": 1}, {"a": 2}]',
    '{"a": "{\\"a\\": 1, \\"a\\": 2}"}',
    '{"": 1, "a": [], "b": {}}',
    '"text"',
    '{"deep": ' + '['.repeat(200) + ']'.repeat(200) + '}',
  ])('finds none in %s, where every object names each key once', (text) => {
    JSON.parse(text);
    expect(duplicateKey(text)).toBeUndefined();
  });

  // A MiB of nesting, as large as a body may be: a scan that copied each container's path would
  // take minutes and gigabytes here.
  const deep = (levels: number, inner: string) => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
  it.each([
    ['after it', `{"deep": ${deep(170_000, '1')}, "deep": 2}`, 'deep'],
    ['at its bottom', `[${deep(170_000, '{"k": 1, "k": 2}')}]`, `[0]${'.a'.repeat(170_000)}.k`],
    ['nowhere', `{"deep": ${deep(170_000, '1')}}`, undefined],
  ])('scans a document nested 170,000 objects deep, with a key given twice %s', (_where, text, path) => {
    JSON.parse(text);
    expect(duplicateKey(text)).toBe(path);
  });
});

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

  it('scans a body nested 200,000 objects deep in one pass, naming a repeated key at the bottom', () => {
    // A scan copying the path at every level took 5 s at 10,000 levels and would not finish here.
    const depth = 200_000;
    const text = '{"a":'.repeat(depth) + '{"k":1,"k":2}' + '}'.repeat(depth);
    const path = duplicateKey(text);
    expect(path?.length).toBe(depth * 2 + 1);
    expect(path?.endsWith('a.a.k')).toBe(true);
    expect(duplicateKey('{"a":'.repeat(depth) + '1' + '}'.repeat(depth))).toBeUndefined();
  });
});

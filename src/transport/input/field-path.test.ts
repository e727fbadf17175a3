import { describe, expect, it } from 'vitest';
import { fieldPath, valueAt } from './field-path.js';

describe('fieldPath', () => {
  it.each([
    [[], ''],
    [['name'], 'name'],
    [['skills', 'gitRefs', 0, 'url'], 'skills.gitRefs[0].url'],
    [['toolset', 2], 'toolset[2]'],
    [['labels', 'team.example.com/owner'], 'labels.team.example.com/owner'],
  ])('renders %j as %j', (path, text) => {
    expect(fieldPath(path)).toBe(text);
  });
});

describe('valueAt', () => {
  const input = { name: 'sre', skills: { gitRefs: [{ url: 'https://github.com/o/r' }] }, toolset: null };

  it('finds a value through objects and lists', () => {
    expect(valueAt(input, ['skills', 'gitRefs', 0, 'url'])).toBe('https://github.com/o/r');
    expect(valueAt(input, [])).toBe(input);
  });

  it('reports a null that was sent as null, not as missing', () => {
    expect(valueAt(input, ['toolset'])).toBeNull();
  });

  it.each([
    ['a field that is absent', ['modelConfig']],
    ['an index past the end of a list', ['skills', 'gitRefs', 1]],
    ['a path through a string', ['name', 'first']],
    ['a path through null', ['toolset', 0]],
    ['an inherited property', ['constructor']],
  ])('is undefined for %s', (_case, path) => {
    expect(valueAt(input, path)).toBeUndefined();
  });
});

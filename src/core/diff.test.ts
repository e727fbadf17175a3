import { describe, expect, it } from 'vitest';
import { changedPaths, jsonEqual } from './diff.js';

type V = Record<string, unknown>;

describe('changedPaths', () => {
  it.each<[string, V, V, string[]]>([
    ['identical values', { a: { b: 1 }, l: [1, 2] }, { a: { b: 1 }, l: [1, 2] }, []],
    ['empty values', {}, {}, []],
    ['a changed leaf', { agent: { name: 'a', description: 'x' } }, { agent: { name: 'a', description: 'y' } }, ['agent.description']],
    ['a removed leaf', { agent: { name: 'a', description: 'x' } }, { agent: { name: 'a' } }, ['agent.description']],
    ['an added leaf', { agent: { name: 'a' } }, { agent: { name: 'a', iconUrl: 'u' } }, ['agent.iconUrl']],
    ['a whole new map, as its leaves', {}, { labels: { b: '1', a: '2' } }, ['labels.a', 'labels.b']],
    ['a whole removed map, as its leaves', { skills: { refs: ['r'], gitAuthSecretRef: { name: 's' } } }, {}, ['skills.gitAuthSecretRef.name', 'skills.refs']],
    ['a list, as a whole at its own path', { toolset: ['a', 'b'] }, { toolset: ['b', 'a'] }, ['toolset']],
    ['a nested list', { skills: { gitRefs: [{ url: 'u', name: 'a' }] } }, { skills: { gitRefs: [{ url: 'u', name: 'b' }] } }, ['skills.gitRefs']],
    ['a list that is not split like Go’s fmt.Sprint would', { l: ['a b'] }, { l: ['a', 'b'] }, ['l']],
    ['a map replaced by a scalar', { global: { a: 1 } }, { global: null }, ['global']],
    ['a scalar of another type', { replicas: 1 }, { replicas: '1' }, ['replicas']],
    ['a key set to null next to an absent one', { a: null }, {}, ['a']],
    ['an empty map appearing (it has no leaves)', {}, { labels: {} }, []],
  ])('reports %s', (_label, before, after, want) => {
    expect(changedPaths(before, after)).toStrictEqual(want);
  });

  it('ignores key order inside list items', () => {
    expect(changedPaths({ l: [{ a: 1, b: 2 }] }, { l: [{ b: 2, a: 1 }] })).toStrictEqual([]);
  });

  it('sorts the paths', () => {
    expect(changedPaths({}, { z: 1, a: { y: 1, b: 1 }, m: [] })).toStrictEqual(['a.b', 'a.y', 'm', 'z']);
  });
});

describe('jsonEqual', () => {
  it.each<[unknown, unknown, boolean]>([
    [1, 1, true],
    ['1', 1, false],
    [null, undefined, false],
    [[1, [2]], [1, [2]], true],
    [[1], [1, 1], false],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{}, [], false],
  ])('judges %j and %j equal: %s', (a, b, want) => {
    expect(jsonEqual(a, b)).toBe(want);
  });
});

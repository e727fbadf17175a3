import { describe, expect, it } from 'vitest';
import { latestVersion, parseSemverConstraint, parseStrictVersion } from './semver-constraint.js';

describe('latestVersion', () => {
  const original = ['0.1.0', '0.5.2', '0.6.0-rc.1', '0.6.0', 'artifacthub.io', '1.0.0'];

  it.each([
    ['x.x.x', '1.0.0'],
    ['0.x', '0.6.0'],
    ['*', '1.0.0'],
    ['x', '1.0.0'],
    ['0.5.x', '0.5.2'],
    ['~0.5', '0.5.2'],
    ['^0.5.0', '0.5.2'],
    ['<0.6.0', '0.5.2'],
    ['>=0.6.0-0', '1.0.0'],
    ['>=0.6.0-0 <1.0.0', '0.6.0'],
    ['0.6.0-rc.1', '0.6.0-rc.1'],
    ['0.1.0 || 0.5.2', '0.5.2'],
    ['0.1.0 - 0.5.2', '0.5.2'],
    ['!=1.0.0', '0.6.0'],
  ])('picks the newest of the published tags for %s: %s', (range, expected) => {
    expect(latestVersion(original, range)).toBe(expected);
  });

  it('keeps the tag spelling as published, build metadata included', () => {
    expect(latestVersion(['0.5.2+abc', '0.5.1'], '0.5.x')).toBe('0.5.2+abc');
  });

  it('ignores tags that are not strict SemVer (leading v, two parts, leading zeros)', () => {
    expect(latestVersion(['v2.0.0', '2.0', '02.0.0', '1.0.0', 'latest', 'sha256-abc.sig'], 'x.x.x')).toBe('1.0.0');
  });

  it('chooses a pre-release when the range names one and it is the newest', () => {
    expect(latestVersion(['0.5.2', '0.6.0', '0.7.0-rc.1'], '>=0.5.0-0')).toBe('0.7.0-rc.1');
    expect(latestVersion(['0.5.2', '0.6.0', '0.7.0-rc.1'], '0.x')).toBe('0.6.0');
  });

  it('says which range found nothing among how many tags', () => {
    expect(() => latestVersion(['0.1.0', 'artifacthub.io'], '2.x')).toThrow('no chart version satisfies "2.x" among 2 tags');
    expect(() => latestVersion([], 'x.x.x')).toThrow('no chart version satisfies "x.x.x" among 0 tags');
  });

  it('refuses an unparsable range before looking at tags', () => {
    expect(() => latestVersion(['1.0.0'], 'latest')).toThrow(/semver range "latest" is not valid/);
  });
});

describe('parseSemverConstraint', () => {
  it.each([
    // wildcards
    ['x.x.x', '0.0.1', true],
    ['x.x.x', '1.0.0-rc.1', false],
    ['*', '3.2.1', true],
    ['X', '3.2.1', true],
    ['1.x', '1.9.9', true],
    ['1.x', '2.0.0', false],
    ['1.x', '0.9.9', false],
    ['1.*', '1.0.0', true],
    ['1', '1.5.0', true],
    ['1', '2.0.0', false],
    ['1.2', '1.2.9', true],
    ['1.2', '1.3.0', false],
    ['1.x', '1.0.0-dev.20240101', false],
    ['0.x', '0.7.0-rc.1', false],
    ['1.2.x', '1.2.0', true],
    ['=1.2.x', '1.2.5', true],
    // exact
    ['1.2.3', '1.2.3', true],
    ['=1.2.3', '1.2.3+build.7', true],
    ['1.2.3+meta', '1.2.3', true],
    ['1.2.3', '1.2.4', false],
    ['v1.2.3', '1.2.3', true],
    // tilde
    ['~1.2', '1.2.0', true],
    ['~1.2', '1.2.99', true],
    ['~1.2', '1.3.0', false],
    ['~1.2.3', '1.2.2', false],
    ['~1.2.3', '1.2.9', true],
    ['~1.2.3', '1.3.0', false],
    ['~>1.2.3', '1.2.9', true],
    ['~1', '1.9.0', true],
    ['~1', '2.0.0', false],
    ['~0', '0.9.0', true],
    ['~*', '5.0.0', true],
    ['~0.0.0', '9.9.9', true],
    // caret
    ['^1.2.3', '1.2.3', true],
    ['^1.2.3', '1.9.0', true],
    ['^1.2.3', '2.0.0', false],
    ['^1.2.3', '1.2.2', false],
    ['^1.2', '1.2.0', true],
    ['^1', '1.99.0', true],
    ['^0.2.3', '0.2.9', true],
    ['^0.2.3', '0.3.0', false],
    ['^0.2', '0.2.0', true],
    ['^0.2', '0.3.0', false],
    ['^0.0.3', '0.0.3', true],
    ['^0.0.3', '0.0.4', false],
    ['^0.0', '0.0.9', true],
    ['^0.0', '0.1.0', false],
    ['^0', '0.9.9', true],
    ['^0', '1.0.0', false],
    // comparisons
    ['>1.2.3', '1.2.4', true],
    ['>1.2.3', '1.2.3', false],
    ['>1.2', '1.2.9', false],
    ['>1.2', '1.3.0', true],
    ['>1', '1.9.9', false],
    ['>1', '2.0.0', true],
    ['<1.2.3', '1.2.2', true],
    ['<1.2.3', '1.2.3', false],
    ['<1.2', '1.1.9', true],
    ['<1.2', '1.2.0', false],
    ['>=1.2.3', '1.2.3', true],
    ['=>1.2.3', '1.2.3', true],
    ['>= 1.2.3', '1.2.2', false],
    ['<=1.2.3', '1.2.3', true],
    ['=<1.2.3', '1.2.4', false],
    ['<=1.2', '1.2.99', true],
    ['<=1.2', '1.3.0', false],
    ['<=1', '1.99.0', true],
    ['<=1', '2.0.0', false],
    ['!=1.2.3', '1.2.4', true],
    ['!=1.2.3', '1.2.3', false],
    ['!=1.x', '1.5.0', false],
    ['!=1.x', '2.0.0', true],
    ['!=1.2.x', '1.2.7', false],
    ['!=1.2.x', '1.3.0', true],
    // AND and OR
    ['>=1.2.0 <2.0.0', '1.9.9', true],
    ['>=1.2.0, <2.0.0', '2.0.0', false],
    ['>=1.2.0,<2.0.0', '1.2.0', true],
    ['>1.0.0 <=1.2.0 !=1.1.0', '1.1.0', false],
    ['1.x || 3.x', '3.1.0', true],
    ['1.x || 3.x', '2.1.0', false],
    ['1.x||>=3.1', '3.1.0', true],
    // hyphen ranges
    ['1.2.3 - 2.3.4', '1.2.3', true],
    ['1.2.3 - 2.3.4', '2.3.4', true],
    ['1.2.3 - 2.3.4', '2.3.5', false],
    ['1.2 - 2.3', '2.3.9', true],
    ['1.2 - 2.3', '2.4.0', false],
    ['1.0.0 - 1.4.0 || 2.x', '2.2.0', true],
    // pre-releases
    ['>=1.2.0-0', '1.2.0-rc.1', true],
    ['>=1.2.0-0', '3.0.0-alpha.1', true],
    ['>=1.2.0-0', '1.1.9-rc.1', false],
    ['>=1.2.0-0', '3.0.0', true],
    ['>=1.2.0-0 <2.0.0', '1.5.0-rc.1', true],
    // the group admits pre-releases, and 2.0.0-rc.1 precedes 2.0.0 (Masterminds v3.3+)
    ['>=1.2.0-0 <2.0.0', '2.0.0-rc.1', true],
    ['>=1.2.0-0 <2.0.0', '2.0.0', false],
    ['>=1.2.0 <2.0.0', '1.5.0-rc.1', false],
    ['1.x || >=2.0.0-0', '1.5.0-rc.1', false],
    ['1.x || >=2.0.0-0', '2.1.0-rc.1', true],
    ['~1.2.3-beta.2', '1.2.3-beta.4', true],
    ['~1.2.3-beta.2', '1.2.3-beta.1', false],
    ['~1.2.3-beta.2', '1.2.9', true],
    ['^1.2.3-beta.2', '1.9.0-alpha', true],
    ['1.2.3-rc.1', '1.2.3-rc.1', true],
    ['1.2.3-rc.1', '1.2.3', false],
    ['<1.0.0-0', '0.9.0', true],
    ['>1.0.0-alpha', '1.0.0-alpha.1', true],
    ['>1.0.0-alpha', '1.0.0-alpha', false],
    ['>1.0.0-rc.2', '1.0.0-rc.10', true],
    ['!=1.2.3-rc.1', '1.2.3-rc.2', true],
  ])('%s satisfied by %s: %s', (range, version, expected) => {
    expect(parseSemverConstraint(range).satisfies(version)).toBe(expected);
  });

  it('is never satisfied by a tag that is not strict SemVer', () => {
    const any = parseSemverConstraint('*');
    for (const tag of ['v1.0.0', '1.0', '1.0.0.0', '01.0.0', '1.0.0-01', 'latest', '', ' 1.0.0']) {
      expect(any.satisfies(tag), tag).toBe(false);
    }
  });

  it('keeps the range as written', () => {
    expect(parseSemverConstraint(' >=1.0, <2 ').range).toBe(' >=1.0, <2 ');
  });

  it.each([
    [''],
    ['latest'],
    ['>=1.0.0 <'],
    ['1.0.0 ||'],
    ['|| 1.0.0'],
    ['1.2.3.4'],
    ['>=1.2.3-'],
    ['1.2.3-01'],
    ['>=1.0.0,'],
    ['1.x.y'],
    ['>> 1.0.0'],
    ['1.0.0 - '],
    ['a'.repeat(513)],
  ])('refuses %j with a reason and examples', (range) => {
    expect(() => parseSemverConstraint(range)).toThrow(/^semver range ".*" is not valid: .+\(examples: x\.x\.x/s);
  });

  it('names the offending constraint', () => {
    expect(() => parseSemverConstraint('>=1.0.0 || banana')).toThrow('improper constraint "banana"');
  });
});

describe('parseStrictVersion', () => {
  it.each([
    ['1.2.3', true],
    ['0.0.0', true],
    ['1.2.3-rc.1', true],
    ['1.2.3-rc.1+build.5', true],
    ['1.2.3+build', true],
    ['1.2.3-0a', true],
    ['v1.2.3', false],
    ['1.2', false],
    ['1', false],
    ['01.2.3', false],
    ['1.02.3', false],
    ['1.2.03', false],
    ['1.2.3-01', false],
    ['1.2.3-', false],
    ['1.2.3+', false],
    ['1.2.3-rc..1', false],
    ['=1.2.3', false],
    [' 1.2.3', false],
    ['1.2.3 ', false],
    ['99999999999999999999.0.0', false],
    ['artifacthub.io', false],
  ])('%j parses strictly: %s', (tag, ok) => {
    expect(parseStrictVersion(tag) !== undefined).toBe(ok);
  });
});

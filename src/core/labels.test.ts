import { describe, expect, it } from 'vitest';
import { annotationsViolations, labelsViolations } from './labels.js';

describe('labelsViolations', () => {
  it.each([
    ['a plain key', { team: 'sre' }],
    ['a prefixed key', { 'app.kubernetes.io/part-of': 'agents' }],
    ['an empty value', { flag: '' }],
    ['dots, dashes and underscores', { 'a.b-c_d': 'x.y-z_1' }],
    ['no map at all', undefined],
  ])('accepts %s', (_case, labels) => {
    expect(labelsViolations(labels)).toEqual([]);
  });

  it.each([
    ['a key with a space', { 'a b': 'c' }, 'labels key "a b" is not a valid Kubernetes label key: the name must be'],
    ['an empty key', { '': 'c' }, 'labels key "" is not a valid Kubernetes label key: the name is empty'],
    ['an uppercase prefix', { 'Example.com/x': 'c' }, 'the prefix must be a DNS subdomain'],
    ['an empty prefix', { '/x': 'c' }, 'the prefix before "/" is empty'],
    ['a 64-character name', { ['k'.repeat(64)]: 'c' }, 'the name is longer than 63 characters'],
    ['a 64-character value', { team: 'v'.repeat(64) }, 'labels["team"] is longer than 63 characters'],
    ['a value ending in a dash', { team: 'sre-' }, 'labels["team"] value "sre-" must be empty or'],
    ['a key named __proto__ with a bad name', { ['a/b/c']: 'x' }, 'the name must be'],
  ])('refuses %s', (_case, labels, text) => {
    expect(labelsViolations(labels).join('\n')).toContain(text);
  });
});

describe('annotationsViolations', () => {
  it('accepts any value under a valid key', () => {
    expect(annotationsViolations({ 'ui.giantswarm.io/note': 'Anything goes: spaces, ünïcode, "quotes"\nand lines' })).toEqual([]);
  });

  it('refuses a bad key and more than 256 KiB in all', () => {
    expect(annotationsViolations({ 'a b': 'x' })[0]).toMatch(/^annotations key "a b" is not a valid Kubernetes annotation key/);
    expect(annotationsViolations({ big: 'x'.repeat(262_142) })[0]).toMatch(/^annotations hold 262145 bytes/);
  });
});

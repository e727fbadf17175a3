/**
 * Label and field selector grammar: what matches, and what is refused with 400.
 */
import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status.js';
import { configmaps, events } from '../resources/builtin-core.js';
import { helmreleases } from '../resources/custom.js';
import { fieldSelector, labelSelector } from './selectors.js';

const obj = (labels: Record<string, string>) => ({ metadata: { name: 'x', namespace: 'ns', labels } });

describe('labelSelector', () => {
  it.each([
    ['equality', 'a=1', { a: '1' }, true],
    ['equality miss', 'a=1', { a: '2' }, false],
    ['inequality on absent key', 'a!=1', {}, true],
    ['in with spaces', 'a in ( 1 , 2 )', { a: '2' }, true],
    ['notin on absent key', 'a notin (1)', {}, true],
    ['exists', 'a', { a: '' }, true],
    ['does not exist', '!a', { a: '1' }, false],
    ['greater than', 'n>3', { n: '4' }, true],
    ['less than', 'n<3', { n: '4' }, false],
    ['empty value', 'a=', { a: '' }, true],
    ['prefixed key', 'app.kubernetes.io/managed-by=agent-manager', { 'app.kubernetes.io/managed-by': 'agent-manager' }, true],
    ['conjunction', 'a=1,!b,c in (x)', { a: '1', c: 'x' }, true],
  ])('matches %s', (_name, selector, labels, expected) => {
    expect(labelSelector(selector)!(obj(labels))).toBe(expected);
  });

  it('takes prefixed keys and empty values, as labels.Parse does', () => {
    expect(labelSelector('example.com/tier=x,a=,b.c-d_e!=v.1')!({ metadata: { labels: { 'example.com/tier': 'x', a: '' } } }))
      .toBe(true);
  });

  it('selects everything when empty', () => {
    expect(labelSelector('')).toBeUndefined();
    expect(labelSelector('  ')).toBeUndefined();
  });

  it.each([['a in b'], ['a in ()'], ['=a'], ['a b'], ['a>x'], ['a in (1'],
    // What apimachinery's labels.Parse checks beyond the grammar: a trailing comma, keys and values.
    ['tier=x,'], ['a==='], ['A_//b=c'], ['a=%%'], ['-a=b'], ['Example.com/a=b'], [`a=${'v'.repeat(64)}`],
    ['a in (x,%)']])('refuses %s with 400', (selector) => {
    try {
      labelSelector(selector);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      expect((err as StatusError).message).toMatch(/^unable to parse requirement/);
    }
  });
});

describe('fieldSelector', () => {
  const ev = { metadata: { name: 'e', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'a,b' }, type: 'Warning' };

  it('matches event fields, with escaped commas', () => {
    expect(fieldSelector('involvedObject.name=a\\,b,type==Warning', events)!(ev)).toBe(true);
    expect(fieldSelector('involvedObject.kind!=Pod', events)!(ev)).toBe(false);
  });

  it('refuses unknown fields of built-in kinds with the real text', () => {
    expect(() => fieldSelector('spec.x=1', configmaps)).toThrow('field label not supported: spec.x');
  });

  it('refuses unknown fields of custom resources with the real text', () => {
    expect(() => fieldSelector('spec.suspend=true', helmreleases)).toThrow('"spec.suspend" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });
});

/**
 * The three patch formats on plain JSON: RFC 6902 JSON patch, RFC 7386 merge patch and
 * strategic merge patch with its directives, list strategies taken from the schema.
 */
import { describe, expect, it } from 'vitest';
import { deploymentSchema } from '../resources/builtin-schemas.js';
import { applyJsonPatch, PatchApplyError } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { strategicMerge } from './strategic-merge.js';

describe('applyJsonPatch', () => {
  const doc = { a: { b: [1, 2] }, c: 'x' };

  it.each([
    ['add into an object', [{ op: 'add', path: '/a/d', value: 1 }], { a: { b: [1, 2], d: 1 }, c: 'x' }],
    ['append to a list', [{ op: 'add', path: '/a/b/-', value: 3 }], { a: { b: [1, 2, 3] }, c: 'x' }],
    ['insert into a list', [{ op: 'add', path: '/a/b/0', value: 0 }], { a: { b: [0, 1, 2] }, c: 'x' }],
    ['remove', [{ op: 'remove', path: '/c' }], { a: { b: [1, 2] } }],
    ['replace', [{ op: 'replace', path: '/a/b/1', value: 9 }], { a: { b: [1, 9] }, c: 'x' }],
    ['move', [{ op: 'move', from: '/c', path: '/d' }], { a: { b: [1, 2] }, d: 'x' }],
    ['copy', [{ op: 'copy', from: '/c', path: '/a/e' }], { a: { b: [1, 2], e: 'x' }, c: 'x' }],
    ['a passing test', [{ op: 'test', path: '/c', value: 'x' }], doc],
    ['escaped pointers', [{ op: 'add', path: '/a~1b', value: 1 }], { a: { b: [1, 2] }, c: 'x', 'a/b': 1 }],
  ])('applies %s', (_name, patch, expected) => {
    expect(applyJsonPatch(doc, patch)).toEqual(expected);
  });

  it('leaves the target unchanged', () => {
    applyJsonPatch(doc, [{ op: 'remove', path: '/c' }]);
    expect(doc).toEqual({ a: { b: [1, 2] }, c: 'x' });
  });

  it.each([
    ['a failing test', [{ op: 'test', path: '/c', value: 'y' }], 'testing value /c failed: test failed'],
    ['removing what is absent', [{ op: 'remove', path: '/zz' }], 'remove operation does not apply: doc is missing path: "/zz": missing value'],
    ['a path through nothing', [{ op: 'add', path: '/x/y', value: 1 }], 'doc is missing path: "/x/y": missing value'],
    ['an unknown op', [{ op: 'frob', path: '/c' }], 'Unexpected kind: frob'],
  ])('refuses %s', (_name, patch, message) => {
    expect(() => applyJsonPatch(doc, patch)).toThrow(new PatchApplyError(message));
  });
});

describe('applyMergePatch', () => {
  it('merges objects, deletes nulls and replaces lists', () => {
    expect(applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({
      a: { c: 2, d: 3 }, l: [3],
    });
  });
});

describe('strategicMerge', () => {
  const deployment = {
    metadata: { finalizers: ['a'], labels: { x: '1' } },
    spec: {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      template: { spec: {
        containers: [{ name: 'main', image: 'v1', env: [{ name: 'A', value: '1' }] }, { name: 'side', image: 's1' }],
        volumes: [{ name: 'data', emptyDir: {} }],
        tolerations: [{ key: 'k1' }],
      } },
    },
  };
  const merge = (patch: unknown) => strategicMerge(deployment, patch, deploymentSchema) as any;

  it('merges a keyed list item by item', () => {
    const out = merge({ spec: { template: { spec: { containers: [{ name: 'main', image: 'v2' }, { name: 'new', image: 'n1' }] } } } });
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'main', image: 'v2', env: [{ name: 'A', value: '1' }] }, { name: 'side', image: 's1' }, { name: 'new', image: 'n1' },
    ]);
  });

  it('replaces lists without a merge strategy', () => {
    expect(merge({ spec: { template: { spec: { tolerations: [{ key: 'k2' }] } } } }).spec.template.spec.tolerations).toEqual([{ key: 'k2' }]);
  });

  it('merges primitive lists with a merge strategy as sets', () => {
    expect(merge({ metadata: { finalizers: ['b', 'a'] } }).metadata.finalizers).toEqual(['a', 'b']);
  });

  it.each([
    ['$patch: delete on a list item', { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } },
      (o: any) => expect(o.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['main'])],
    ['$patch: replace on a list', { spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'o' }] } } } },
      (o: any) => expect(o.spec.template.spec.containers).toEqual([{ name: 'only', image: 'o' }])],
    ['$patch: replace on a map', { metadata: { labels: { $patch: 'replace', y: '2' } } },
      (o: any) => expect(o.metadata.labels).toEqual({ y: '2' })],
    ['$patch: delete on a map', { spec: { strategy: { $patch: 'delete' } } },
      (o: any) => expect(o.spec.strategy).toBeUndefined()],
    ['$retainKeys', { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      (o: any) => expect(o.spec.strategy).toEqual({ type: 'Recreate' })],
    ['$deleteFromPrimitiveList', { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      (o: any) => expect(o.metadata.finalizers).toEqual([])],
    ['$setElementOrder', { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'main' }] } } } },
      (o: any) => expect(o.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['side', 'main'])],
    ['null deleting a field', { metadata: { labels: { x: null } } },
      (o: any) => expect(o.metadata.labels).toEqual({})],
  ])('honours %s', (_name, patch, check) => {
    check(merge(patch));
  });

  it('leaves directives out of inserted values', () => {
    const out = merge({ spec: { template: { spec: { containers: [{ name: 'fresh', image: 'f', env: [{ name: 'X', $patch: 'merge' }] }] } } } });
    expect(out.spec.template.spec.containers[2]).toEqual({ name: 'fresh', image: 'f', env: [{ name: 'X' }] });
  });

  it('refuses a keyed list item without its merge key', () => {
    expect(() => merge({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } })).toThrow(PatchApplyError);
  });
});

/**
 * Field ownership primitives: fieldsV1 encoding, conflict-message paths, the applied
 * field set, comparison of versions, and the Update record of managedFields.
 */
import { describe, expect, it } from 'vitest';
import { configMapSchema, deploymentSchema } from '../resources/builtin-schemas.js';
import { helmReleaseSchema } from '../resources/schemas/flux.js';
import { FieldSet, pathString } from './field-set.js';
import { recordUpdate, trackedView } from './managed-fields.js';
import { appliedFieldSet, compareObjects, removeFieldPath } from './schema-walk.js';

describe('FieldSet', () => {
  it('round-trips fieldsV1 with "." on members that have children', () => {
    const tree = {
      'f:data': { '.': {}, 'f:a': {} },
      'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } },
    };
    const set = FieldSet.fromFieldsV1(tree);
    expect(set.toPaths()).toEqual([
      ['f:data'], ['f:data', 'f:a'],
      ['f:spec', 'f:containers', 'k:{"name":"web"}'], ['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'],
    ]);
    expect(set.toFieldsV1()).toEqual(tree);
  });

  it.each([
    [['f:spec', 'f:replicas'], '.spec.replicas'],
    [['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'], '.spec.containers[name="web"].image'],
    [['f:metadata', 'f:finalizers', 'v:"x"'], '.metadata.finalizers[="x"]'],
    [['f:spec', 'f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'], '.spec.ports[containerPort=80,protocol="TCP"]'],
  ])('prints %j as %s', (path, text) => {
    expect(pathString(path)).toBe(text);
  });
});

describe('appliedFieldSet', () => {
  it('lists leaves, keyed items and map entries, not struct fields', () => {
    const set = appliedFieldSet({
      metadata: { labels: { app: 'x' } },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'i' }] } }, selector: { matchLabels: { app: 'x' } } },
    }, deploymentSchema);
    expect(set.toFieldsV1()).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    });
  });

  it('treats preserve-unknown-fields values as granular maps', () => {
    const set = appliedFieldSet({ spec: { values: { agent: { name: 'a' } } } }, helmReleaseSchema);
    expect(set.toFieldsV1()).toEqual({ 'f:spec': { 'f:values': { 'f:agent': { '.': {}, 'f:name': {} } } } });
  });
});

describe('compareObjects', () => {
  it('reports added subtrees whole, changed leaves and removed items', () => {
    const before = { data: { a: '1', b: '2' } };
    const after = { data: { a: '9', c: '3' }, binaryData: { x: 'eA==' } };
    const cmp = compareObjects(before, after, configMapSchema);
    expect(cmp.added.toPaths()).toEqual([['f:binaryData'], ['f:binaryData', 'f:x'], ['f:data', 'f:c']]);
    expect(cmp.modified.toPaths()).toEqual([['f:data', 'f:a']]);
    expect(cmp.removed.toPaths()).toEqual([['f:data', 'f:b']]);
  });
});

describe('removeFieldPath', () => {
  it('removes fields, keyed list items and set values', () => {
    const obj = { metadata: { finalizers: ['a', 'b'] }, spec: { template: { spec: { containers: [{ name: 'x' }, { name: 'y' }] } } } };
    removeFieldPath(obj, ['f:metadata', 'f:finalizers', 'v:"a"']);
    removeFieldPath(obj, ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"x"}']);
    removeFieldPath(obj, ['f:spec', 'f:nothing', 'f:here']);
    expect(obj).toEqual({ metadata: { finalizers: ['b'] }, spec: { template: { spec: { containers: [{ name: 'y' }] } } } });
  });
});

describe('recordUpdate', () => {
  const id = { manager: 'editor', apiVersion: 'v1', scope: 'main' as const, schema: configMapSchema, hasStatusSubresource: false };

  it('gives the writer what it changed and takes it from others', () => {
    const first = recordUpdate([], {}, { metadata: { name: 'x' }, data: { a: '1', b: '2' } }, { ...id, manager: 'creator' });
    expect(first[0]!.set.toFieldsV1()).toEqual({ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } });
    const second = recordUpdate(first, { data: { a: '1', b: '2' } }, { data: { a: '1', b: '3' } }, id);
    expect(second.find((e) => e.manager === 'creator')!.set.toFieldsV1()).toEqual({ 'f:data': { '.': {}, 'f:a': {} } });
    expect(second.find((e) => e.manager === 'editor')!.set.toFieldsV1()).toEqual({ 'f:data': { 'f:b': {} } });
  });

  it('tracks neither server-owned metadata nor apiVersion and kind', () => {
    const view = trackedView({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', uid: 'u', labels: { a: 'b' } }, data: {} }, 'main', false);
    expect(view).toEqual({ metadata: { labels: { a: 'b' } }, data: {} });
    expect(trackedView({ spec: {}, status: { s: 1 } }, 'status', true)).toEqual({ status: { s: 1 } });
  });
});

/**
 * The batched lint of rendered values (helm-lint.ts): each set is linted as helm lints the chart
 * with that set as a `-f` file, and a set helm refuses fails the file, named with helm's reason.
 */
import { describe, expect, it } from 'vitest';
import { helmLint, lintLater, lintRendered, mergeValues, refusedBy } from './helm-lint.js';

describe('mergeValues', () => {
  it('merges maps key by key, replaces lists and scalars, and deletes a default on null, as helm merges -f values', () => {
    const base = { a: { b: 1, c: [1, 2], d: { e: 'x' } }, f: 'keep', g: 'drop' };
    expect(mergeValues(base, { a: { b: 2, c: [3], d: null }, g: null, h: true })).toEqual({
      a: { b: 2, c: [3] }, f: 'keep', h: true,
    });
    expect(base.a.d).toEqual({ e: 'x' });
  });

  it('keeps a null for a key the defaults lack, as helm does, for the schema to judge', () => {
    expect(mergeValues({ a: 1 }, { extra: null, a: null })).toEqual({ extra: null });
  });
});

describe('refusedBy', () => {
  it('fails a chart on an error or a warning, as --strict does, and not on information', () => {
    expect(refusedBy('[INFO] Chart.yaml: icon is recommended\n')).toBe(false);
    expect(refusedBy('[INFO] Chart.yaml: icon is recommended\n[WARNING] templates/pdb.yaml: policy/v1beta1 is deprecated\n'))
      .toBe(true);
    expect(refusedBy("[ERROR] values.yaml: - at '/replicaCount': got string, want integer\n")).toBe(true);
  });
});

describe('lintRendered', () => {
  it('passes the sets helm lints clean, and agrees with a lint of the same values given with -f', () => {
    const values = { replicaCount: 3, podDisruptionBudget: { minAvailable: null, maxUnavailable: 1 } };
    lintLater(values);
    lintLater({ metrics: { enabled: false } });
    expect(() => lintRendered()).not.toThrow();
    expect(helmLint(values).status).toBe(0);
  });

  it('throws naming the set helm refuses, with its reason', () => {
    lintLater({ replicaCount: 'two' });
    lintLater({ replicaCount: 2 });
    expect(() => lintRendered()).toThrow(/\{"replicaCount":"two"\}[\s\S]*replicaCount[\s\S]*want integer/);
    expect(helmLint({ replicaCount: 'two' }).status).not.toBe(0);
  });

  it('does nothing when no set is waiting', () => {
    expect(() => lintRendered()).not.toThrow();
  });
});

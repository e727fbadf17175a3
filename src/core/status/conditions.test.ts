import { describe, expect, it } from 'vitest';
import { conditionStatus, conditionText, findCondition, parseConditions } from './conditions.js';
import type { Condition } from '../types.js';

const conds: Condition[] = [
  { type: 'Ready', status: 'True', reason: 'Ok' },
  { type: 'Accepted', status: 'False', reason: 'Bad', message: 'no model' },
  { type: 'Stalled', status: 'Unknown' },
  { type: 'Ready', status: 'True' },
];

describe('conditionStatus', () => {
  it.each<[string, string, boolean | null]>([
    ['True is true', 'Ready', true],
    ['False is false', 'Accepted', false],
    ['Unknown is not known', 'Stalled', null],
    ['absent is not known', 'Reconciling', null],
  ])('%s', (_name, type, want) => {
    expect(conditionStatus(conds, type)).toBe(want);
  });

  it('reads no conditions as not known', () => {
    expect(conditionStatus(undefined, 'Ready')).toBeNull();
  });
});

describe('findCondition', () => {
  it('finds the condition of a type, the first when it is there twice with one status', () => {
    expect(findCondition(conds, 'Ready')).toEqual({ type: 'Ready', status: 'True', reason: 'Ok' });
    expect(findCondition(conds, 'Nope')).toBeUndefined();
    expect(findCondition(undefined, 'Ready')).toBeUndefined();
  });

  it('answers a type given twice with different statuses as Unknown, so neither order reads as ready', () => {
    const twice = [{ type: 'Ready', status: 'True', observedGeneration: 2 }, { type: 'Ready', status: 'False', observedGeneration: 2 }];
    for (const given of [twice, [...twice].reverse()]) {
      expect(findCondition(given, 'Ready')).toMatchObject({ type: 'Ready', status: 'Unknown', reason: 'Contradictory' });
      expect(conditionStatus(given, 'Ready')).toBeNull();
    }
    // The same status twice says one thing: the first is the answer.
    const same = [{ type: 'Ready', status: 'True', reason: 'A' }, { type: 'Ready', status: 'True', reason: 'B' }];
    expect(findCondition(same, 'Ready')).toEqual({ type: 'Ready', status: 'True', reason: 'A' });
  });
});

describe('conditionText', () => {
  it.each<[string, Condition | undefined, string]>([
    ['reason and message', { type: 'A', status: 'False', reason: 'R', message: 'm' }, 'R: m'],
    ['reason only', { type: 'A', status: 'False', reason: 'R' }, 'R'],
    ['message only', { type: 'A', status: 'False', message: 'm' }, 'm'],
    ['neither', { type: 'A', status: 'False' }, 'no reason reported'],
    ['no condition', undefined, 'no condition reported'],
  ])('renders %s', (_name, c, want) => {
    expect(conditionText(c)).toBe(want);
  });
});

describe('parseConditions', () => {
  it('reads raw conditions, leaves out empty fields, renders times to the second and keeps the generation judged', () => {
    expect(parseConditions([
      { type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: '2024-05-01T10:11:12Z', observedGeneration: 3 },
      { type: 'Available', status: 'False', lastTransitionTime: new Date('2024-05-01T10:11:12.345Z') },
      { type: 'Odd', status: 'True', lastTransitionTime: 'yesterday' },
      'not a condition',
      null,
    ])).toEqual([
      { type: 'Ready', status: 'True', reason: 'Ok', lastTransitionTime: '2024-05-01T10:11:12Z', observedGeneration: 3 },
      { type: 'Available', status: 'False', lastTransitionTime: '2024-05-01T10:11:12Z' },
      { type: 'Odd', status: 'True', lastTransitionTime: 'yesterday' },
    ]);
  });

  it('gives no conditions for an absent list', () => {
    expect(parseConditions(undefined)).toEqual([]);
    expect(parseConditions({})).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { formatKubeTime } from './kube-time.js';

describe('formatKubeTime', () => {
  it.each<[string, unknown, string | undefined]>([
    ['an RFC 3339 time in UTC', '2024-05-01T10:11:12Z', '2024-05-01T10:11:12Z'],
    ['a MicroTime, cut (not rounded) to the second', '2024-05-01T10:11:12.999999Z', '2024-05-01T10:11:12Z'],
    ['an offset, turned into UTC', '2024-05-01T12:11:12+02:00', '2024-05-01T10:11:12Z'],
    ['a Date from client-node', new Date(Date.UTC(2024, 4, 1, 10, 11, 12, 500)), '2024-05-01T10:11:12Z'],
    ['absent', undefined, undefined],
    ['null (a zero time in JSON)', null, undefined],
    ['empty', '', undefined],
    ['not a time', 'yesterday', undefined],
    ['an invalid Date', new Date(Number.NaN), undefined],
    ['a number', 1714558272000, undefined],
  ])('renders %s', (_name, value, want) => {
    expect(formatKubeTime(value)).toBe(want);
  });
});

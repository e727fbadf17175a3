import { describe, expect, it } from 'vitest';
import { mapBounded } from './bounded.js';

describe('mapBounded', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      for (let i = 0; i < n; i++) await Promise.resolve();
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  it('starts nothing new after a failure and rethrows it', async () => {
    const started: number[] = [];
    await expect(
      mapBounded([1, 2, 3, 4, 5], 1, async (n) => {
        started.push(n);
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
    expect(started).toEqual([1, 2]);
  });

  it('answers an empty list without calling', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});

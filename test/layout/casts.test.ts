/**
 * Type assertions stay few and explained: `x as T` tells the compiler to trust us, so each one
 * left in production code says on its line, or the line above, why it is safe, and src/ keeps
 * no more than it holds today (38; 240 before Kubernetes objects got typed views in core/objects/).
 * scripts/count-casts.mjs counts them (`node scripts/count-casts.mjs --list .`).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertionsOf, countCasts } from '../../scripts/count-casts.mjs';

/** The most `as` casts src/ may hold: its count when the typed views landed (a ratchet: lower it, never raise it). */
const SRC_CAST_BUDGET = 38;
const root = resolve(import.meta.dirname, '../..');

describe('casts in production code', () => {
  it('counts `as` and `!`, leaves `as const` out, and sees a comment on the line or the line above', () => {
    const text = 'const a = x as Y;\n// safe: b is set above\nconst b = y as Z;\nconst c = [1] as const;\nconst d = e!;\n';
    expect(assertionsOf('probe.ts', text)).toEqual([
      { kind: 'as', line: 1, commented: false },
      { kind: 'as', line: 3, commented: true },
      { kind: '!', line: 5, commented: false },
    ]);
  });

  const counts = countCasts(root);
  it(`src/ holds at most ${SRC_CAST_BUDGET} as-casts`, () => {
    expect(counts['src']!.as).toBeLessThanOrEqual(SRC_CAST_BUDGET);
  });

  it.each(Object.keys(counts))('every as-cast left in %s says why it is safe', (tree) => {
    expect(counts[tree]!.uncommented.map((a) => `${a.file}:${a.line}`)).toEqual([]);
  });
});

/**
 * The value sets hack/helm-checks.sh feeds helm in CI, checked here with the same real helm:
 * ok-* sets pass `helm lint --strict` and render, and their arguments parse; fail-* sets are
 * refused by `helm template` (by the schema or by the chart).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROOT } from './chart-files.js';
import { helmLint } from './helm.js';
import { failure, parsedServe, render } from './render-values.js';

const dir = join(ROOT, 'hack', 'helm-values');
const sets = readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort();
const load = (name: string) => parseYaml(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;

describe('hack/helm-values', () => {
  it('holds sets that must render and sets that must be refused', () => {
    expect(sets.filter((n) => n.startsWith('ok-')).length).toBeGreaterThanOrEqual(2);
    expect(sets.filter((n) => n.startsWith('fail-')).length).toBeGreaterThanOrEqual(2);
    expect(sets.filter((n) => !/^(ok|fail)-/.test(n))).toEqual([]);
  });

  it('lints the chart with its defaults under --strict', () => {
    const lint = helmLint();
    expect(lint.output).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(lint.status).toBe(0);
  });

  it.each(sets.filter((n) => n.startsWith('ok-')))('%s lints, renders, and its arguments parse', (name) => {
    const values = load(name);
    expect(helmLint(values).status).toBe(0);
    expect(parsedServe(render(values)).listen).toBe(':8080');
  });

  it.each(sets.filter((n) => n.startsWith('fail-')))('%s is refused', (name) => {
    expect(failure(load(name))).not.toBe('');
  });
});

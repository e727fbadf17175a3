/**
 * The value sets hack/helm-checks.sh feeds the real helm, rendered here with our
 * renderer: ok-* sets must validate and render, fail-* sets must be refused (by the
 * schema or by the chart), so the script's expectations hold on every machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseConfig } from '../../src/config/index.js';
import { CHART_DIR, defaultValues, ROOT, valuesValidator } from './chart-files.js';
import { coalesce, one, renderChart } from './gotpl/render-chart.js';

const dir = join(ROOT, 'hack', 'helm-values');
const sets = readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort();
const load = (name: string) => parseYaml(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
const validate = valuesValidator();

describe('hack/helm-values', () => {
  it('holds sets that must render and sets that must be refused', () => {
    expect(sets.filter((n) => n.startsWith('ok-')).length).toBeGreaterThanOrEqual(2);
    expect(sets.filter((n) => n.startsWith('fail-')).length).toBeGreaterThanOrEqual(2);
    expect(sets.filter((n) => !/^(ok|fail)-/.test(n))).toEqual([]);
  });

  it.each(sets.filter((n) => n.startsWith('ok-')))('%s validates, renders, and its arguments parse', (name) => {
    const values = load(name);
    expect(validate(coalesce(defaultValues(), values))).toEqual([]);
    const rendered = renderChart(CHART_DIR, { namespace: 'agent-platform', values });
    const container = (one(rendered, 'Deployment') as any).spec.template.spec.containers[0];
    const env = Object.fromEntries((container.env ?? []).map((e: any) => [e.name, e.value ?? 'from-a-secret']));
    expect(parseConfig(container.args, env).kind).toBe('serve');
  });

  it.each(sets.filter((n) => n.startsWith('fail-')))('%s is refused', (name) => {
    const values = load(name);
    const schemaErrors = validate(coalesce(defaultValues(), values));
    if (schemaErrors.length > 0) return;
    expect(() => renderChart(CHART_DIR, { namespace: 'agent-platform', values })).toThrow();
  });
});

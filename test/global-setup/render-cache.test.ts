/**
 * The render store's folder is named by everything a helm run depends on but the values: a
 * change to the chart, to the test code that calls helm, or to the helm binary names another
 * folder, so no later run reads what an older chart or helm rendered.
 */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepOnly, renderCacheName } from './render-cache.js';

let dir: string;
function world() {
  dir = mkdtempSync(join(tmpdir(), 'render-cache-test-'));
  const chart = join(dir, 'chart');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'name: agent-manager\n');
  writeFileSync(join(chart, 'templates', 'a.yaml'), 'kind: A\n');
  const helm = join(dir, 'helm');
  writeFileSync(helm, 'binary');
  const caller = join(dir, 'helm.ts');
  writeFileSync(caller, 'run helm');
  const name = () => renderCacheName(chart, helm, [caller]);
  return { chart, helm, caller, name };
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the render store folder', () => {
  it('keeps its name while nothing a render depends on changes', () => {
    const { name } = world();
    expect(name()).toBe(name());
  });

  it('changes its name with a chart template, a new chart file, the calling test code or the helm binary', () => {
    const { chart, helm, caller, name } = world();
    const names = [name()];
    writeFileSync(join(chart, 'templates', 'a.yaml'), 'kind: B\n');
    names.push(name());
    writeFileSync(join(chart, 'templates', 'b.yaml'), '');
    names.push(name());
    writeFileSync(caller, 'run helm differently');
    names.push(name());
    utimesSync(helm, new Date(0), new Date(0));
    names.push(name());
    writeFileSync(helm, 'another binary');
    names.push(name());
    expect(new Set(names).size).toBe(names.length);
  });

  it('is the only folder kept: older ones are removed', () => {
    world();
    const root = join(dir, 'store');
    keepOnly(root, 'old');
    writeFileSync(join(root, 'old', 'render.json'), '{}');
    const kept = keepOnly(root, 'new');
    expect(kept).toBe(join(root, 'new'));
    expect(readdirSync(root)).toEqual(['new']);
    expect(keepOnly(root, 'new')).toBe(kept);
  });
});

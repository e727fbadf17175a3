/**
 * The render store's folder is named by everything a helm run depends on but the values: a
 * change to the chart, to the test code that calls helm, or to the helm binary names another
 * folder, so no later run reads what an older chart or helm rendered; a folder another run may
 * be writing is not removed under it.
 */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderCacheName, useFolder } from './render-cache.js';

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

  it('removes the folders no run has used for a day, and keeps younger ones another run may be writing', () => {
    world();
    const root = join(dir, 'store');
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    useFolder(root, 'stale', now - day - 1000);
    useFolder(root, 'recent', now - day + 60_000);
    const used = useFolder(root, 'current', now);
    expect(used).toBe(join(root, 'current'));
    expect(readdirSync(root).sort()).toEqual(['current', 'recent']);
    expect(useFolder(root, 'current', now)).toBe(used);
  });
});

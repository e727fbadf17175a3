/**
 * CHANGELOG.md keeps the Keep a Changelog 1.1.0 form, and the release it names last is
 * the version everything else carries: package.json, the chart's version and
 * appVersion, and the image's VERSION (dockerfile.test.ts, chart-values.test.ts). A
 * release therefore moves `[Unreleased]` under a dated `[x.y.z]` heading and bumps all of
 * them in one change, or a test says which one lags.
 */
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readRepoFile } from './chart-files.js';

const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
const text = readRepoFile('CHANGELOG.md');
const pkg = JSON.parse(readRepoFile('package.json')) as { version: string };

/** `## [name]` headings with what follows them, up to the next one. */
const releases = [...text.matchAll(/^## \[([^\]]+)\](.*)$/gm)].map((m, i, all) => ({
  name: m[1]!,
  suffix: m[2]!,
  body: text.slice(m.index + m[0].length, all[i + 1]?.index ?? text.length),
}));

describe('CHANGELOG.md', () => {
  it('opens with the title and says it follows Keep a Changelog and Semantic Versioning', () => {
    expect(text.startsWith('# Changelog\n')).toBe(true);
    expect(text).toContain('[Keep a Changelog](https://keepachangelog.com/en/1.1.0/)');
    expect(text).toContain('[Semantic Versioning](https://semver.org/spec/v2.0.0.html)');
  });

  it('has [Unreleased] first, then releases as "[x.y.z] - YYYY-MM-DD", newest first', () => {
    expect(releases[0]).toMatchObject({ name: 'Unreleased', suffix: '' });
    const released = releases.slice(1);
    expect(released.length).toBeGreaterThan(0);
    for (const r of released) {
      expect(semver.valid(r.name), r.name).toBe(r.name);
      expect(r.suffix, r.name).toMatch(/^ - \d{4}-\d{2}-\d{2}$/);
    }
    const versions = released.map((r) => r.name);
    expect(versions).toEqual([...versions].sort(semver.rcompare));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('groups changes only under the Keep a Changelog headings, each once per release, with list items', () => {
    for (const r of releases) {
      const headings = [...r.body.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
      expect(headings.filter((h) => !SECTIONS.includes(h)), r.name).toEqual([]);
      expect(new Set(headings).size, r.name).toBe(headings.length);
      const lines = r.body.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('### '));
      // Every entry is a list item; continuation lines are indented.
      expect(lines.filter((l) => !/^(- | {2})/.test(l)), r.name).toEqual([]);
    }
  });

  it('names as its newest release the version package.json, the chart and the image carry', () => {
    expect(releases[1]!.name).toBe(pkg.version);
    const chart = parseYaml(readRepoFile('helm', 'agent-manager', 'Chart.yaml')) as { version: string; appVersion: string };
    expect([chart.version, chart.appVersion]).toEqual([pkg.version, pkg.version]);
    expect(readRepoFile('Dockerfile')).toContain(`ARG VERSION=${pkg.version}\n`);
  });
});

import { describe, expect, it } from 'vitest';
import { harnessNameViolation, lineArgumentViolation, pluginsViolations, systemMessageViolation } from
  './line-arguments.js';

const COMMIT = 'c'.repeat(40);

describe('line arguments', () => {
  it('refuses runtime on 2.x, where the Harness is the runtime', () => {
    expect(lineArgumentViolation('2.x', { runtime: 'go' }, 'namespace agents')).toMatch(/^runtime is gone/);
    expect(lineArgumentViolation('2.x', { runtime: null, harness: 'claude' }, 'namespace agents')).toBeUndefined();
  });

  it('refuses the 2.x-only arguments on a 0.x namespace, naming its line', () => {
    const text = lineArgumentViolation('0.x', { harness: 'kagent', plugins: [] }, 'namespace kagent');
    expect(text).toContain('harness, plugins are for agents of chart 2.x');
    expect(text).toContain('namespace kagent renders chart 0.x');
    expect(lineArgumentViolation('0.x', { runtime: 'python' }, 'namespace kagent')).toBeUndefined();
  });

  it('caps the system prompt at 20000 characters, counted as code points', () => {
    expect(systemMessageViolation('x'.repeat(20_000))).toBeUndefined();
    expect(systemMessageViolation('😀'.repeat(20_000))).toBeUndefined();
    expect(systemMessageViolation('x'.repeat(20_001))).toBe('systemMessage is 20001 characters; the agent chart ' +
      'accepts at most 20000. Move long reference material into a skill');
  });

  it('takes a Harness name only as a DNS-1123 label', () => {
    expect(harnessNameViolation('claude')).toBeUndefined();
    expect(harnessNameViolation('Claude')).toContain('is not a Harness name');
    expect(harnessNameViolation(' ')).toContain('harness must name a Harness');
  });

  it('refuses plugins by the original\'s rules, each with its index', () => {
    expect(pluginsViolations([{ git: { url: 'https://github.com/o/p', commit: COMMIT }, skills: ['a'] }])).toEqual([]);
    expect(pluginsViolations([{ git: { url: 'https://x/y', commit: COMMIT }, oci: 'r.io/p@sha256:1', skills: ['a'] }]))
      .toEqual(['plugins[0] has both git and oci; a plugin has exactly one source']);
    expect(pluginsViolations([{ skills: ['a'] }]))
      .toEqual(['plugins[0] has no source: give git: {url, commit} or oci: <reference>@sha256:<digest>']);
    expect(pluginsViolations([{ git: { url: 'https://x/y', ref: 'main' }, skills: ['a'] }])[0])
      .toMatch(/^plugins\[0\]\.git\.ref is not accepted: a plugin is written pinned/);
    expect(pluginsViolations([{ oci: 'r.io/p:1.0', skills: ['a'] }]))
      .toEqual(['plugins[0].oci "r.io/p:1.0" is not digest-pinned; give <registry>/<repository>@sha256:<digest>']);
    expect(pluginsViolations([{ oci: `r.io/p@sha256:${'d'.repeat(64)}`, skills: [] }]))
      .toEqual(["plugins[0] selects no skill; name at least one of the bundle's skills"]);
    expect(pluginsViolations([{ oci: `r.io/p@sha256:${'d'.repeat(64)}`, skills: ['a', 'a', ''], path: '../x' }]))
      .toEqual(['plugins[0].path "../x" must not climb out of the repository ("..")',
        'plugins[0].skills names "a" twice', 'plugins[0].skills contains an empty name']);
    expect(pluginsViolations(Array.from({ length: 21 }, () => ({ skills: ['a'] }))))
      .toEqual(['plugins has 21 entries; the agent chart accepts at most 20']);
  });
});

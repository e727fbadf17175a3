import { describe, expect, it } from 'vitest';
import { callerView, DEFAULT_CATALOGUE } from './catalogue.js';
import { globRegExp, parseToolset, resolveToolset } from './toolsets.js';

const servers = new Map(DEFAULT_CATALOGUE.servers.map((s) => [s.name, s]));
const resolve = (selectors: string[], signedIn: string[] = []) => {
  const view = callerView(DEFAULT_CATALOGUE, signedIn);
  const r = resolveToolset(selectors, view.tools, view.pending, servers);
  const requiringAuth = r.requiringAuth.map((s) => s.name);
  return { tools: r.tools.map((t) => t.name), unmatched: r.unmatched, requiringAuth };
};

describe('parseToolset', () => {
  it('trims each selector as muster does', () => {
    expect(parseToolset([' preset:read-only ', 'tool:x_kubernetes_get'])).toEqual({
      selectors: ['preset:read-only', 'tool:x_kubernetes_get'] });
  });

  it.each([
    [Array.from({ length: 33 }, () => 'preset:none'), /^toolset \[.*\] has 33 selectors, more than the 32 allowed inline; define a preset$/],
    [['toolset:shared'], /^toolset \[toolset:shared\] selector "toolset:shared" is reserved for shared toolsets$/],
    [['pattern:x_*'], /selector "pattern:x_\*" is malformed; expected preset:<name>, server:<name>, workflow:<name> or tool:<name>$/],
    [['Preset:read-only'], /is malformed/],
  ])('refuses %j in muster\'s words', (selectors, text) => {
    expect((parseToolset(selectors) as { error: string }).error).toMatch(text);
  });
});

describe('resolveToolset', () => {
  it('matches workflow:<name> to its workflow_ tool and tool:<name> exactly', () => {
    expect(resolve(['workflow:incident-triage', 'tool:x_kubernetes_get']).tools)
      .toEqual(['workflow_incident-triage', 'x_kubernetes_get']);
  });

  it('reports a signed-out server for the selectors that could select it, and no other', () => {
    expect(resolve(['tool:x_github_get_issue']).requiringAuth).toEqual(['github']);
    expect(resolve(['preset:full']).requiringAuth).toEqual(['github']);
    expect(resolve(['preset:infrastructure', 'preset:agent-platform', 'tool:x_kubernetes_get']).requiringAuth).toEqual([]);
    expect(resolve(['server:github'], ['github'])).toEqual({ tools: ['x_github_create_issue', 'x_github_get_issue'],
      unmatched: [], requiringAuth: [] });
  });
});

describe('globRegExp', () => {
  it.each([['core_*', 'core_service_list', true], ['core_*', 'x_core_a', false], ['x_?_a', 'x_b_a', true],
    ['x.a', 'xya', false]])('%s against %s → %s', (glob, name, match) => {
    expect(globRegExp(glob).test(name)).toBe(match);
  });
});

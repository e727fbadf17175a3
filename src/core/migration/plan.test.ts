import { describe, expect, it } from 'vitest';
import { EMBEDDED_SCHEMA_2X } from '../../chart/embedded/embedded-schemas.js';
import { planNamespace, writable, type ReleaseFacts } from './plan.js';
import { reportData, summaryText, type NamespaceReport } from './report.js';

const schema = { schema: EMBEDDED_SCHEMA_2X as Record<string, unknown>, label: { version: '2.0.0', source: 'embedded' } };
const release = (name: string, extra: Partial<ReleaseFacts> = {}): ReleaseFacts => ({
  name, values: { agent: { name, runtime: 'go' }, modelConfig: { name: 'm' }, toolset: ['preset:none'] },
  line: '0.x', owner: 'agent-manager', suspended: false, ...extra,
});
const input = (releases: ReleaseFacts[]) => ({
  namespace: 'team', to: '2.x' as const, targetSource: 'agent-2', releases, bareAgents: ['bare'], schema, options: {},
});

describe('the expand plan of a namespace', () => {
  it('moves ours, proposes the GitOps-owned, reports the rest, and diffs each', () => {
    const plan = planNamespace(input([
      release('ours'), release('flux', { owner: 'gitops' }), release('hand', { owner: 'external' }),
      release('done', { line: '2.x' }), release('paused', { suspended: true }),
    ]));
    expect(plan.agents.map((a) => [a.name, a.action])).toEqual([
      ['done', 'unchanged'], ['flux', 'propose'], ['hand', 'report'], ['ours', 'move'], ['paused', 'move'],
    ]);
    expect(writable(plan)).toBe(true);
    expect(plan.agents[3]!.diff).toMatch(/^\+ {2}harness: kagent$/m);
    expect(plan.agents[3]!.diff).toMatch(/^- {2}runtime: go$/m);
    expect(plan.agents[4]!.notes).toContain('the release is suspended: it gets its new values and stays suspended');
    expect(plan.bareAgents).toEqual(['bare']);
  });

  it('is not writable when one release is refused, naming it', () => {
    const plan = planNamespace(input([
      release('ok'), release('py', { values: { agent: { name: 'py', runtime: 'python' } } }),
      release('unpinned', { pinRefusal: 'skill r could not be pinned: not found' }),
    ]));
    expect(writable(plan)).toBe(false);
    expect(plan.blockedBy).toEqual(['py', 'unpinned']);
  });

  it('refuses values the target schema refuses, with the schema\'s words', () => {
    const plan = planNamespace(input([release('bad', { values: { agent: { name: 'bad' }, surprise: 1 } })]));
    expect(plan.agents[0]!.refusals[0]).toMatch(/^values do not satisfy the agent chart schema 2\.0\.0 \(embedded\)/);
  });
});

describe('the report', () => {
  const report: NamespaceReport = {
    namespace: 'team', phases: ['expand'], dryRun: true, from: '0.x', to: '2.x', targetSource: 'agent-2',
    agents: [{ name: 'sre', action: 'move', notes: ['n'], refusals: [], diff: '--- a\n+++ b\n' }],
    bareAgents: [], notes: [], actions: [],
  };

  it('holds phase, summary, report.yaml and one diff key per agent', () => {
    const data = reportData(report);
    expect(Object.keys(data).sort()).toEqual(['phase', 'report.yaml', 'sre.diff', 'summary']);
    expect(data.summary).toContain('namespace team: chart 0.x → 2.x (source agent-2), phases expand (dry run');
  });

  it('keeps only the summary when the whole would pass 1 MiB, saying the report is on stdout', () => {
    const big = { ...report, agents: [{ ...report.agents[0]!, diff: 'x'.repeat(1 << 20) }] };
    const data = reportData(big);
    expect(Object.keys(data).sort()).toEqual(['phase', 'summary']);
    expect(data.summary).toMatch(/it is on migrate's stdout/);
    expect(summaryText(big)).toContain('  sre: move');
  });
});

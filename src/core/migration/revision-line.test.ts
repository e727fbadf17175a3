import { describe, expect, it } from 'vitest';
import { crossLineRollback, valuesLine } from './revision-line.js';

describe('the chart line of a revision', () => {
  it('is 2.x for values naming a Harness or holding the skills list, else 0.x', () => {
    expect(valuesLine({ agent: { name: 'a', harness: 'kagent' } })).toBe('2.x');
    expect(valuesLine({ agent: { name: 'a' }, skills: [] })).toBe('2.x');
    expect(valuesLine({ agent: { name: 'a', runtime: 'go' }, skills: { refs: [] } })).toBe('0.x');
  });

  it('refuses a rollback across lines, naming the reverse run; within a line it says nothing', () => {
    expect(crossLineRollback('team/sre', 3, { agent: { name: 'sre' } }, '0.x')).toBeUndefined();
    expect(crossLineRollback('team/sre', 3, { agent: { name: 'sre' } }, '2.x')).toBe(
      'revision 3 of agent team/sre was recorded on chart 0.x, and the namespace\'s chart line moved: the agent now ' +
      'renders chart 2.x, which that revision\'s values do not fit. To go back to chart 0.x, run agent-manager ' +
      'migrate --phase expand --agent-chart-semver 0.x --namespaces team (it moves every agent of the namespace ' +
      'back, or names those that cannot move)');
  });
});

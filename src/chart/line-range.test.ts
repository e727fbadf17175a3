import { describe, expect, it } from 'vitest';
import { lineOfRange, rangeLine, rangeMajors } from './line-range.js';

describe('the chart line of a semver range', () => {
  it('follows one major for the ranges the platform writes', () => {
    expect(rangeLine('0.x')).toEqual({ line: '0.x' });
    expect(rangeLine('2.x')).toEqual({ line: '2.x' });
    expect(rangeLine('~2.1')).toEqual({ line: '2.x' });
    expect(rangeLine('>=0.5.2 <0.7.0')).toEqual({ line: '0.x' });
    expect(rangeLine('2.0.x')).toEqual({ line: '2.x' });
  });

  it('refuses a range admitting two majors, naming them', () => {
    expect(rangeMajors('x.x.x')).toContain(0);
    const wide = rangeLine('x.x.x');
    expect('error' in wide && wide.error).toContain('admits chart majors 0, 1, 2, 3, …');
    const two = rangeLine('>=0.5.0 <3.0.0');
    expect('error' in two && two.error).toContain('admits chart majors 0, 1, 2;');
  });

  it('refuses the AgentTemplate line and ranges that do not parse', () => {
    const one = rangeLine('1.x');
    expect('error' in one && one.error).toContain('follows chart 1.x, which agent-manager does not serve');
    expect(lineOfRange('not a range')).toBeUndefined();
  });
});

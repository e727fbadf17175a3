import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressReporter } from './progress.js';

describe('ProgressReporter', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('sends each report at once with a progress that grows by one', () => {
    const sent: Array<[number, string]> = [];
    const reporter = new ProgressReporter((p, m) => sent.push([p, m]), 1000);
    reporter.report('HelmRelease created');
    reporter.report('Agent is Ready');
    expect(sent).toEqual([[1, 'HelmRelease created'], [2, 'Agent is Ready']]);
    reporter.stop();
  });

  it('repeats the last message while a call is quiet, and stops with the call', () => {
    const sent: Array<[number, string]> = [];
    const reporter = new ProgressReporter((p, m) => sent.push([p, m]), 1000);
    reporter.report('1/1 pods not ready');
    vi.advanceTimersByTime(999);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([[1, '1/1 pods not ready'], [2, '1/1 pods not ready'], [3, '1/1 pods not ready']]);
    reporter.report('Agent is Ready');
    vi.advanceTimersByTime(500);
    expect(sent.at(-1)).toEqual([4, 'Agent is Ready']);
    reporter.stop();
    vi.advanceTimersByTime(10_000);
    reporter.report('too late');
    expect(sent).toHaveLength(4);
  });

  it('sends nothing before the tool has reported anything', () => {
    const sent: unknown[] = [];
    const reporter = new ProgressReporter(() => sent.push(1), 1000);
    vi.advanceTimersByTime(5000);
    expect(sent).toEqual([]);
    reporter.stop();
  });
});

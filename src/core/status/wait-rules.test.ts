import { describe, expect, it } from 'vitest';
import type { Status } from '../types.js';
import { elapsedSeconds, goneStatus, isNews, waitEnd, waitSeconds } from './wait-rules.js';

const status = (verdict: Status['verdict'], summary: string = verdict): Status => ({ name: 'a', namespace: 'n', verdict, summary });

describe('waitSeconds', () => {
  it('takes whole seconds within the range and the fallback when absent', () => {
    expect(waitSeconds('timeoutSeconds', undefined, 1, 60)).toBe(60);
    expect(waitSeconds('timeoutSeconds', 1, 1, 60)).toBe(1);
    expect(waitSeconds('timeoutSeconds', 600, 1, 60)).toBe(600);
    expect(waitSeconds('wait', 0, 0, 0)).toBe(0);
  });

  it('refuses values outside the range, fractions and non-numbers, saying the range', () => {
    expect(() => waitSeconds('timeoutSeconds', 601, 1, 60)).toThrow('invalid request: timeoutSeconds must be a whole number of seconds from 1 to 600, got 601');
    expect(() => waitSeconds('timeoutSeconds', 0, 1, 60)).toThrow('from 1 to 600, got 0');
    expect(() => waitSeconds('wait', -1, 0, 0)).toThrow('wait must be a whole number of seconds from 0 to 600 (0: answer at once, without waiting), got -1');
    expect(() => waitSeconds('wait', 1.5, 0, 0)).toThrow('got 1.5');
    expect(() => waitSeconds('wait', '5', 0, 0)).toThrow('got "5"');
  });
});

describe('waitEnd', () => {
  it('ends a wait for ready on ready, early on failed, and on the agent being gone', () => {
    expect(waitEnd(status('ready'), false, 'ready')).toBe('ready');
    expect(waitEnd(status('failed'), false, 'ready')).toBe('failed');
    expect(waitEnd(status('progressing'), false, 'ready')).toBeUndefined();
    expect(waitEnd(status('unknown'), false, 'ready')).toBeUndefined();
    expect(waitEnd(goneStatus('n', 'a'), true, 'ready')).toBe('deleted');
  });

  it('ends a wait for deleted only once the Agent and HelmRelease are gone, whatever the verdict', () => {
    expect(waitEnd(status('ready'), false, 'deleted')).toBeUndefined();
    expect(waitEnd(status('failed'), false, 'deleted')).toBeUndefined();
    expect(waitEnd(goneStatus('n', 'a'), true, 'deleted')).toBe('deleted');
  });
});

describe('isNews', () => {
  it('is news when the verdict or the summary changed, or nothing was told yet', () => {
    expect(isNews(undefined, status('progressing'))).toBe(true);
    expect(isNews(status('progressing', 'x'), status('progressing', 'y'))).toBe(true);
    expect(isNews(status('progressing', 'x'), status('ready', 'x'))).toBe(true);
    expect(isNews(status('progressing', 'x'), { ...status('progressing', 'x'), pods: [] })).toBe(false);
  });
});

describe('goneStatus and elapsedSeconds', () => {
  it('says the agent is deleted, and measures to a tenth of a second', () => {
    expect(goneStatus('kagent', 'sre')).toMatchObject({
      verdict: 'unknown', summary: 'agent kagent/sre is deleted: neither its Agent nor its HelmRelease exists',
      agent: { exists: false }, helmRelease: { exists: false },
    });
    expect(elapsedSeconds(1000, 2540)).toBe(1.5);
    expect(elapsedSeconds(2000, 1000)).toBe(0);
  });
});

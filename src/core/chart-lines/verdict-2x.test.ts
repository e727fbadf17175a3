import { describe, expect, it } from 'vitest';
import type { StatusFacts } from '../status/verdict.js';
import { statusVerdict2x } from './verdict-2x.js';

const condition = (type: string, status: string, reason = type, message = '', observedGeneration?: number) =>
  ({ type, status, reason, message, ...(observedGeneration ? { observedGeneration } : {}) });
const release = (over: Partial<NonNullable<StatusFacts['helmRelease']>> = {}): StatusFacts['helmRelease'] => ({
  exists: true, ready: true, suspended: false, gitOpsOwned: false, deleting: false, generation: 2,
  observedGeneration: 2, conditions: [condition('Ready', 'True', 'UpgradeSucceeded', '', 2)], ...over,
});
const agent = (over: Partial<NonNullable<StatusFacts['agent']>> = {}): StatusFacts['agent'] => ({
  exists: true, ready: true, accepted: true, harness: 'kagent', generation: 3, observedGeneration: 3,
  desiredRevision: 4, latestSuccessfulRevision: 4,
  conditions: [condition('Accepted', 'True'), condition('ResolvedRefs', 'True'), condition('Ready', 'True')], ...over,
});

describe('the 2.x verdict', () => {
  it('is ready when the Agent is Ready at the revision it was asked to run', () => {
    expect(statusVerdict2x({ helmRelease: release(), agent: agent() })).toEqual({
      verdict: 'ready', summary: 'Agent is Ready on Harness kagent (revision 4)' });
  });

  it('names the warnings of a ready Agent', () => {
    expect(statusVerdict2x({ helmRelease: release(), agent: agent({ warnings: ['partial tools'] }) }).summary)
      .toBe('Agent is Ready on Harness kagent (revision 4) with 1 warning(s): partial tools');
  });

  it('is failed for a Harness that does not exist (ResolvedRefs False)', () => {
    const facts = { helmRelease: release(), agent: agent({ harness: 'codex', conditions: [
      condition('Accepted', 'True'), condition('ResolvedRefs', 'False', 'HarnessNotFound', 'Harness "codex" not found'),
      condition('Ready', 'False', 'HarnessNotFound')] }) };
    expect(statusVerdict2x(facts)).toEqual({ verdict: 'failed',
      summary: 'Harness codex: ResolvedRefs is False (HarnessNotFound: Harness "codex" not found)' });
  });

  it('is progressing while the Harness compiles a newer revision', () => {
    expect(statusVerdict2x({ helmRelease: release(), agent: agent({ desiredRevision: 5 }) })).toEqual({
      verdict: 'progressing', summary: 'Harness kagent is compiling revision 5; 4 is the latest successful one' });
  });

  it('is not ready before kagent observed the Agent\'s generation', () => {
    expect(statusVerdict2x({ helmRelease: release(), agent: agent({ generation: 4 }) }).summary)
      .toBe('Agent generation 4 not yet observed by kagent (observed 3)');
    expect(statusVerdict2x({ helmRelease: release(), agent: agent({ observedGeneration: undefined }) }).summary)
      .toBe('kagent has not reported on the Agent yet');
  });

  it('is not ready before helm-controller observed the write\'s generation', () => {
    expect(statusVerdict2x({ helmRelease: release(), agent: agent() }, { generation: 3 }).verdict).toBe('progressing');
    expect(statusVerdict2x({ helmRelease: release({ observedGeneration: 1 }), agent: agent() }).summary)
      .toMatch(/^HelmRelease generation 2 not yet observed by helm-controller/);
  });

  it('tells a release waiting on its source from a failed one, and a failing source from a slow one', () => {
    const waiting = release({ ready: false, conditions: [condition('Ready', 'False', 'SourceNotReady', 'no artifact', 2)] });
    expect(statusVerdict2x({ helmRelease: waiting }).verdict).toBe('progressing');
    expect(statusVerdict2x({ helmRelease: waiting }, {}, 'ReadOperationFailed: no match').summary)
      .toBe('the chart source is failing: ReadOperationFailed: no match');
    const broken = release({ ready: false, conditions: [condition('Ready', 'False', 'UpgradeFailed', 'schema', 2)] });
    expect(statusVerdict2x({ helmRelease: broken, agent: agent() })).toEqual({
      verdict: 'failed', summary: 'HelmRelease is not ready: UpgradeFailed: schema' });
  });

  it('waits for the Agent to be rendered after the release', () => {
    expect(statusVerdict2x({ helmRelease: release() }).summary)
      .toBe('HelmRelease is ready but the Agent has not been rendered yet');
  });
});

describe('a suspended release of chart 2.x', () => {
  it('is failed, saying to resume it, while its change is not applied', () => {
    const facts = { helmRelease: release({ suspended: true, generation: 3, observedGeneration: 3,
      lastAttemptedGeneration: 2 }), agent: agent() };
    expect(statusVerdict2x(facts)).toMatchObject({ verdict: 'failed',
      summary: expect.stringMatching(/^suspended: Flux does not reconcile it; resume it to apply changes/) });
  });
});

import { describe, expect, it } from 'vitest';
import { liveViolationsAdvice, splitViolations, updatePaths, violationPath } from './live-violations.js';

const RUNTIME = '/agent/runtime: "rust" is not one of "go", "python"';
const SCHEMA = {
  properties: {
    agent: { properties: { runtime: { type: 'string', enum: ['go', 'python'] }, description: { type: 'string' } } },
    replicas: { type: 'integer' },
  },
};
const RELEASE = { namespace: 'kagent', name: 'sre' };

describe('updatePaths', () => {
  it('names the value path of every field an update sets, a cleared one too', () => {
    expect(updatePaths({ name: 'sre', description: 'x', runtime: '', modelConfig: 'm', toolset: ['preset:none'], labels: {} }))
      .toEqual(['agent.description', 'agent.runtime', 'modelConfig.name', 'toolset', 'labels']);
    expect(updatePaths({ name: 'sre' })).toEqual([]);
  });
});

describe('violationPath', () => {
  it.each([
    [RUNTIME, ['agent', 'runtime']],
    ['(root): additional property "x" is not allowed', []],
    ['agent chart schema 1.0.0 (registry) does not compile: boom', undefined],
  ])('reads the path of %s', (line, tokens) => {
    expect(violationPath(line)).toEqual(tokens);
  });
});

describe('splitViolations', () => {
  it('gives the live release a violation it already has in a field the update does not set', () => {
    expect(splitViolations([RUNTIME], [RUNTIME], ['agent.description'])).toEqual({ change: [], live: [RUNTIME] });
  });

  it('gives the change a violation in a field it sets, even one the live release has too', () => {
    expect(splitViolations([RUNTIME], [RUNTIME], ['agent.runtime'])).toEqual({ change: [RUNTIME], live: [] });
  });

  it('gives the change a violation below a block it replaces whole', () => {
    const url = '/skills/gitRefs/0/url: must match pattern "^https://"';
    expect(splitViolations([url], [url], ['skills'])).toEqual({ change: [url], live: [] });
  });

  it('gives the change a violation the live values do not have, and one without a path', () => {
    const compile = 'agent chart schema 1.0.0 (registry) does not compile: boom';
    expect(splitViolations([RUNTIME, compile], [compile], ['agent.description'])).toEqual({ change: [RUNTIME, compile], live: [] });
  });

  it('keeps a parent\'s violation the live release has with the live release when the update sets a field below it', () => {
    const extra = '/agent: additional property "colour" is not allowed';
    expect(splitViolations([extra], [extra], ['agent.description'])).toEqual({ change: [], live: [extra] });
  });
});

describe('liveViolationsAdvice', () => {
  it('says to set the field in the same update, with an allowed value and the chart default, or to roll back', () => {
    expect(liveViolationsAdvice([RUNTIME], SCHEMA, RELEASE)).toBe(
      'The live release already carries the value at /agent/runtime, which this change does not set: set runtime ' +
      '(runtime: "go", or "" for the chart default) in this update, or roll back to a revision without it (rollback_agent)',
    );
  });

  it('says to fix the release itself for a value no update sets, which a rollback keeps too', () => {
    expect(liveViolationsAdvice(['/replicas: must be integer'], SCHEMA, RELEASE)).toBe(
      'The live release already carries the value at /replicas, which this change does not set: fix the release\'s ' +
      'values (kubectl edit helmrelease -n kagent sre), which no update or rollback changes',
    );
  });

  it('names every path once and each field once', () => {
    const lines = [RUNTIME, '/agent/runtime: must be string', '/toolset: must NOT have fewer than 1 items'];
    expect(liveViolationsAdvice(lines, SCHEMA, RELEASE)).toBe(
      'The live release already carries the values at /agent/runtime, /toolset, which this change does not set: set ' +
      'runtime (runtime: "go", or "" for the chart default) and toolset in this update, or roll back to a revision ' +
      'without them (rollback_agent)',
    );
  });
});

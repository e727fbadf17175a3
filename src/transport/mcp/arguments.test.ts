import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { agentRefInput, createAgentInput, getInfoInput, rollbackAgentInput, updateAgentInput } from '../operation-schemas.js';
import { parseArguments } from './arguments.js';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('parseArguments', () => {
  it('returns the parsed arguments when they fit the schema', () => {
    expect(parseArguments('get_agent', agentRefInput, { name: 'sre', namespace: 'kagent' })).toEqual({ name: 'sre', namespace: 'kagent' });
  });

  it('treats absent arguments as an empty object', () => {
    expect(parseArguments('get_info', getInfoInput, undefined)).toEqual({});
  });

  it.each([
    ['a missing required argument', agentRefInput, {}, 'invalid request: name is required'],
    ['a wrong type, in the REST words', agentRefInput, { name: 3 }, 'invalid request: invalid JSON: field "name" must be a string, not a number'],
    [
      'an unknown field, listing what the tool takes',
      agentRefInput,
      { name: 'sre', nmae: 'x' },
      'invalid request: unknown field "nmae" (get_agent takes: name, namespace, organization, cluster)',
    ],
    ['a fractional revision, naming the value', rollbackAgentInput, { name: 'sre', revision: 1.5 }, 'invalid request: invalid JSON: field "revision" must be a whole number, not 1.5'],
    ['a dryRun given as a string', createAgentInput, { name: 'sre', modelConfig: 'm', dryRun: 'All' }, 'invalid request: invalid JSON: field "dryRun" must be a boolean, not a string'],
    ['a dryRun given as a number', createAgentInput, { name: 'sre', modelConfig: 'm', dryRun: 1 }, 'invalid request: invalid JSON: field "dryRun" must be a boolean, not a number'],
    ['an unknown field of a tool without arguments', getInfoInput, { x: 1 }, 'invalid request: unknown field "x" (get_agent takes no arguments)'],
    [
      'a nested problem, by its path',
      createAgentInput,
      { name: 'sre', modelConfig: 'm', skills: { gitRefs: [{ path: 'a' }] } },
      'invalid request: skills.gitRefs[0].url is required',
    ],
    [
      'a nested unknown field',
      createAgentInput,
      { name: 'sre', modelConfig: 'm', skills: { gitRef: [] } },
      'invalid request: skills: unknown field "gitRef"',
    ],
    [
      'several problems, each once',
      createAgentInput,
      { labels: { a: 1 } },
      'invalid request: name is required; modelConfig is required; invalid JSON: field "labels.a" must be a string, not a number',
    ],
  ])('refuses %s as invalid_request', (_case, schema, args, message) => {
    const error = refusal(() => parseArguments('get_agent', schema, args));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(message);
  });
});

describe('parseArguments on inputs the schema cannot be trusted with', () => {
  it.each([
    ['under labels', '{"name":"sre","modelConfig":"m","labels":{"__proto__":{"team":"x"}}}', 'invalid request: labels.__proto__: "__proto__" is not accepted as a key'],
    ['under annotations', '{"name":"sre","modelConfig":"m","annotations":{"__proto__":"x"}}', 'invalid request: annotations.__proto__: "__proto__" is not accepted as a key'],
    ['at the top level', '{"name":"sre","modelConfig":"m","__proto__":{"x":1}}', 'invalid request: unknown field "__proto__" (create_agent takes: name, namespace, organization, cluster, displayName, description, systemMessage, modelConfig, iconUrl, runtime, harness, plugins, requireApproval, egress, gitAuthSecretName, skills, toolset, labels, annotations, dryRun, wait, mode, repository, branch, path)'],
  ])('refuses a "__proto__" key %s instead of dropping it', (_case, json, message) => {
    const error = refusal(() => parseArguments('create_agent', createAgentInput, JSON.parse(json)));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(message);
  });

  it('refuses arguments nested deeper than 64 levels, naming the argument, without overflowing the stack', () => {
    const deep = JSON.parse(`{"name":"sre","labels":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`);
    const error = refusal(() => parseArguments('get_agent', agentRefInput, deep));
    expect(error.message).toBe('invalid request: labels nests objects and lists deeper than 64 levels');
  });

  it('accepts the deepest real input, a gitRef inside skills', () => {
    const args = { name: 'sre', modelConfig: 'm', skills: { gitRefs: [{ url: 'https://github.com/o/r', path: 'a' }] } };
    expect(parseArguments('create_agent', createAgentInput, args)).toEqual(args);
  });

  it('never lists a removed argument among those a tool takes', () => {
    const error = refusal(() => parseArguments('create_agent', createAgentInput, { name: 'sre', modelConfig: 'm', bogus: 1 }));
    expect(error.message).toContain('unknown field "bogus" (create_agent takes: name, namespace');
    expect(error.message).not.toContain('toolNames');
  });
});

describe('a null argument, as on REST', () => {
  it('is "not given" for a plain field, at any depth of objects', () => {
    const args = { name: 'sre', modelConfig: 'm', description: null, labels: null, skills: { refs: null, gitRefs: [{ url: 'https://github.com/o/r', path: null }] } };
    expect(parseArguments('create_agent', createAgentInput, args)).toEqual({ name: 'sre', modelConfig: 'm', skills: { gitRefs: [{ url: 'https://github.com/o/r' }] } });
  });

  it.each([
    ['dryRun', createAgentInput, 'invalid request: invalid JSON: field "dryRun" must be a boolean, not null'],
    ['wait', createAgentInput, 'invalid request: invalid JSON: field "wait" must be a number, not null'],
    ['force', updateAgentInput, 'invalid request: invalid JSON: field "force" must be a boolean, not null'],
    ['version', updateAgentInput, 'invalid request: invalid JSON: field "version" must be a string, not null'],
    ['resourceVersion', updateAgentInput, 'invalid request: invalid JSON: field "resourceVersion" must be a string, not null'],
  ])('is refused for the safety switch or precondition %s', (field, schema, message) => {
    expect(refusal(() => parseArguments('t', schema, { name: 'sre', modelConfig: 'm', [field]: null })).message).toBe(message);
  });

  it('is refused for the mode, naming the modes', () => {
    expect(refusal(() => parseArguments('t', createAgentInput, { name: 'sre', modelConfig: 'm', mode: null })).message)
      .toBe('invalid request: mode: must be one of "apply", "commit", not null');
  });
});

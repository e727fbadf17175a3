import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { agentRefInput, createAgentInput, getInfoInput } from '../operation-schemas.js';
import { parseArguments, pathText } from './arguments.js';

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
    ['a wrong type', agentRefInput, { name: 3 }, 'invalid request: name: expected string, received number'],
    [
      'an unknown field, listing what the tool takes',
      agentRefInput,
      { name: 'sre', nmae: 'x' },
      'invalid request: unknown field "nmae" (get_agent takes: name, namespace)',
    ],
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
      'invalid request: name is required; modelConfig is required; labels.a: expected string, received number',
    ],
  ])('refuses %s as invalid_request', (_case, schema, args, message) => {
    const error = refusal(() => parseArguments('get_agent', schema, args));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(message);
  });
});

describe('pathText', () => {
  it.each([
    [[], ''],
    [['name'], 'name'],
    [['skills', 'gitRefs', 0, 'url'], 'skills.gitRefs[0].url'],
  ])('renders %j as %j', (path, text) => {
    expect(pathText(path)).toBe(text);
  });
});

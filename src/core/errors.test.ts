import { describe, expect, it } from 'vitest';
import {
  AppError, ErrorCode, HTTP_STATUS, SENTINEL, backendError, conflict, invalid, isAppError, notFound,
  toAppError, toMcpErrorText, toRestErrorBody, unsupported,
} from './errors.js';

describe('the error model', () => {
  it.each([
    ['invalid_request', 400],
    ['not_found', 404],
    ['conflict', 409],
    ['gitops_owned', 409],
    ['forbidden', 403],
    ['unauthenticated', 401],
    ['auth_required', 401],
    ['unsupported', 501],
    ['backend_error', 502],
  ] as const)('maps %s to HTTP %i', (code, status) => {
    expect(HTTP_STATUS[code]).toBe(status);
    expect(new AppError(code, 'x').status).toBe(status);
  });

  it('has exactly nine codes, each with a status and a sentinel', () => {
    const codes = Object.values(ErrorCode);
    expect(codes).toHaveLength(9);
    for (const code of codes) {
      expect(HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(typeof SENTINEL[code]).toBe('string');
    }
  });

  it('keeps the Go sentinel prefixes so clients that compare strings keep working', () => {
    expect(invalid('name is required').message).toBe('invalid request: name is required');
    expect(notFound('agent kagent/x').message).toBe('not found: agent kagent/x');
    expect(conflict('HelmRelease kagent/sre already exists; use update_agent to change it').message)
      .toBe('conflict: HelmRelease kagent/sre already exists; use update_agent to change it');
    expect(unsupported('no skill repositories are configured').message)
      .toBe('unsupported: no skill repositories are configured');
    expect(backendError('list agents in kagent: boom').message).toBe('list agents in kagent: boom');
  });

  it('exposes the detail without the prefix', () => {
    expect(invalid('name is required').detail).toBe('name is required');
  });

  it('renders the REST body and the MCP text', () => {
    const err = invalid('modelConfig is required');
    expect(toRestErrorBody(err)).toEqual({
      error: { code: 'invalid_request', message: 'invalid request: modelConfig is required' },
    });
    expect(toMcpErrorText(err)).toBe('invalid_request: invalid request: modelConfig is required');
  });

  it('turns anything else into a backend error with the message only', () => {
    const err = toAppError(new TypeError('socket hang up'));
    expect(err.code).toBe('backend_error');
    expect(err.message).toBe('socket hang up');
    expect(err.message).not.toContain('at ');
    expect(toAppError('text').message).toBe('text');
  });

  it('keeps the cause so a retry can still see the original failure', () => {
    const cause = new Error('409 from the apiserver');
    expect(conflict('x', cause).cause).toBe(cause);
    expect(isAppError(conflict('x'), 'conflict')).toBe(true);
    expect(isAppError(conflict('x'), 'not_found')).toBe(false);
    expect(isAppError(new Error('x'))).toBe(false);
  });
});

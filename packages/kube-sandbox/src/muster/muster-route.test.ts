import { describe, expect, it } from 'vitest';
import { musterRoute } from './muster-route.js';

const tokens = new Map([['t1', 'alice']]);

describe('musterRoute', () => {
  it('the protected-resource metadata is public, at the root and for /mcp, even while failing', () => {
    expect(musterRoute('/.well-known/oauth-protected-resource', undefined, 'http-error', tokens))
      .toEqual({ kind: 'metadata' });
    expect(musterRoute('/.well-known/oauth-protected-resource/mcp?x=1', undefined, undefined, tokens))
      .toEqual({ kind: 'metadata' });
  });

  it('any other path is not found, before the token is looked at', () => {
    expect(musterRoute('/other', 'Bearer nope', undefined, tokens)).toEqual({ kind: 'not-found' });
  });

  it('an http-error fault fails every MCP request, known token or not', () => {
    expect(musterRoute('/mcp', 'Bearer t1', 'http-error', tokens)).toEqual({ kind: 'failing' });
  });

  it('a missing, malformed or unknown bearer token reaches no tool', () => {
    for (const authorization of [undefined, 'Basic t1', 'Bearer', 'Bearer other']) {
      expect(musterRoute('/mcp', authorization, undefined, tokens)).toEqual({ kind: 'unauthorized' });
    }
  });

  it('a known token serves MCP as the person it names, a tool-error fault notwithstanding', () => {
    expect(musterRoute('/mcp', 'bearer t1', 'tool-error', tokens))
      .toEqual({ kind: 'mcp', token: 't1', subject: 'alice' });
  });
});

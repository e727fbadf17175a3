import { describe, expect, it } from 'vitest';
import type { ToolsetResolution } from '../../core/guards/tool-verdict.js';
import { checkClaudeToolset, type ClaudeToolsetCheckDeps } from './claude-toolset-check.js';
import { ToolsetCheckError, type ToolsetResolver, type ToolsetResolveRequest } from './toolset-port.js';

const RESOLUTION: ToolsetResolution = { tools: [{ name: 'x_kubernetes_get', readOnly: true }], signInRequired: [],
  unmatched: [], agentPlatformTools: [] };

/** A resolver that records what it was asked and answers `answer`. */
function recording(answer: () => Promise<ToolsetResolution>): ToolsetResolver & { asked: ToolsetResolveRequest[] } {
  const asked: ToolsetResolveRequest[] = [];
  return { asked, resolve: (request) => {
    asked.push(request);
    return answer();
  } };
}

const deps = (over: Partial<ClaudeToolsetCheckDeps> = {}): ClaudeToolsetCheckDeps => ({
  resolver: recording(() => Promise.resolve(RESOLUTION)), musterUrl: 'http://muster:8090/mcp', oauth: true, ...over,
});

describe('checkClaudeToolset', () => {
  it('asks muster with the caller\'s token under OAuth', async () => {
    const resolver = recording(() => Promise.resolve(RESOLUTION));
    expect(await checkClaudeToolset(deps({ resolver }), { token: 'caller-token' }, ['preset:read-only']))
      .toEqual({ resolution: RESOLUTION });
    expect(resolver.asked).toEqual([{ url: 'http://muster:8090/mcp', token: 'caller-token',
      toolset: ['preset:read-only'], signal: undefined }]);
  });

  it('asks with the token file\'s token without OAuth, never a token the request carried', async () => {
    const resolver = recording(() => Promise.resolve(RESOLUTION));
    await checkClaudeToolset(deps({ resolver, oauth: false, serviceToken: () => Promise.resolve({ token: 'file-token' }) }),
      { token: 'unverified' }, ['preset:read-only']);
    expect(resolver.asked.map((r) => r.token)).toEqual(['file-token']);
  });

  it('asks nothing when there is no toolset (the guard refuses it as required)', async () => {
    expect(await checkClaudeToolset(deps(), { token: 't' }, undefined)).toBeUndefined();
    expect(await checkClaudeToolset(deps(), { token: 't' }, [])).toBeUndefined();
  });

  it.each([
    ['no resolver', deps({ resolver: undefined }), { token: 't' }, { kind: 'unconfigured' }],
    ['no muster URL', deps({ musterUrl: '' }), { token: 't' }, { kind: 'unconfigured' }],
    ['no caller token under OAuth', deps(), {}, { kind: 'no-token' }],
    ['no token file without OAuth', deps({ oauth: false }), { token: 'unverified' }, { kind: 'no-token' }],
    ['an unreadable token file', deps({ oauth: false, serviceToken: () => Promise.resolve({ problem: '--muster-token-file /t is empty' }) }),
      {}, { kind: 'error', detail: '--muster-token-file /t is empty' }],
    ['muster refusing the token', deps({ resolver: recording(() => Promise.reject(new ToolsetCheckError({ kind: 'unauthorized',
      detail: 'muster refused the token (401)' }))) }), { token: 't' }, { kind: 'unauthorized', detail: 'muster refused the token (401)' }],
    ['an unexpected failure', deps({ resolver: recording(() => Promise.reject(new Error('boom'))) }), { token: 't' },
      { kind: 'error', detail: 'boom' }],
  ])('fails closed on %s', async (_name, given, ctx, failure) => {
    expect(await checkClaudeToolset(given, ctx, ['preset:read-only'])).toEqual({ failure });
  });
});

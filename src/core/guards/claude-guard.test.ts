import { describe, expect, it } from 'vitest';
import { claudeGuardDecision, claudeToolset, uncheckedToolset, type ClaudeGuardInput } from './claude-guard.js';
import { networkNote } from './system-prompt.js';

const ORIGINS = ['https://github.com', 'https://*.githubusercontent.com'];

const input = (over: Partial<ClaudeGuardInput> = {}): ClaudeGuardInput => ({
  harness: 'claude',
  harnessEgress: ORIGINS,
  values: { agent: { name: 'reviewer', systemMessage: 'You review pull requests.' }, toolset: ['preset:read-only'] },
  caller: 'jane@example.com',
  checkedAt: '2026-12-06T18:00:00Z',
  toolsetCheck: { resolution: { tools: [{ name: 'x_kubernetes_get', readOnly: true },
    { name: 'core_service_list', readOnly: true }], signInRequired: [], unmatched: [], agentPlatformTools: [] } },
  ...over,
});

const reasons = (over: Partial<ClaudeGuardInput>) => {
  const decision = claudeGuardDecision(input(over));
  if (!('refuse' in decision)) throw new Error('expected a refusal');
  return decision.refuse;
};

describe('claudeGuardDecision', () => {
  it('allows a read-only toolset: the platform egress and the network note written, the verdict sorted', () => {
    expect(claudeGuardDecision(input())).toEqual({
      allow: {
        values: {
          agent: { name: 'reviewer', egress: ORIGINS,
            systemMessage: `You review pull requests.\n\n${networkNote(ORIGINS)}` },
          toolset: ['preset:read-only'],
        },
        guard: { harness: 'claude', caller: 'jane@example.com', checkedAt: '2026-12-06T18:00:00Z',
          tools: [{ name: 'core_service_list', readOnly: true }, { name: 'x_kubernetes_get', readOnly: true }] },
      },
    });
  });

  it('leaves the input values untouched', () => {
    const given = input();
    const before = structuredClone(given.values);
    claudeGuardDecision(given);
    expect(given.values).toEqual(before);
  });

  it('removes an egress the release carried when the platform gives the Harness none', () => {
    const decision = claudeGuardDecision(input({ harnessEgress: [],
      values: { agent: { name: 'r', egress: ['https://old.example.com'] }, toolset: ['preset:none'] } }));
    expect(decision).toHaveProperty('allow');
    expect((decision as unknown as { allow: { values: { agent: object } } }).allow.values.agent).not.toHaveProperty('egress');
  });

  it('accepts a requested egress inside the platform list', () => {
    expect(claudeGuardDecision(input({ requestedEgress: ['https://github.com'] }))).toHaveProperty('allow');
  });

  it('refuses a requested origin outside the list', () => {
    expect(reasons({ requestedEgress: ['https://evil.example.com'] })).toEqual({ code: 'invalid_request', reasons: [
      'egress origin "https://evil.example.com" is not one of Harness claude\'s origins (https://github.com, ' +
      "https://*.githubusercontent.com): a claude Harness agent reaches its toolchain's origins only, which the " +
      'platform sets'] });
  });

  it('refuses a requested egress the Agent would refuse, by the egress rules', () => {
    expect(reasons({ requestedEgress: ['https://github.com', 'https://github.com'] }).reasons)
      .toEqual(['egress[1] "https://github.com" is listed twice']);
  });

  it('refuses a prompt that overflows the cap with the note', () => {
    expect(reasons({ values: { agent: { systemMessage: 'a'.repeat(19_950) }, toolset: ['preset:read-only'] } })
      .reasons[0]).toMatch(/^systemMessage with the platform's egress note: systemMessage is \d+ characters;/);
  });

  it('refuses requireApproval and carried extra bindings, every reason listed', () => {
    expect(reasons({ values: { agent: {}, toolset: ['preset:read-only'], muster: { requireApproval: true },
      extraTools: [{ a: 1 }, { b: 2 }], extraAgentSpec: { tools: [] } } }).reasons).toEqual([
      'muster.requireApproval: a claude Harness agent takes no requireApproval binding: its muster tools are ' +
        "read-only, and approving a call is muster's",
      'extraTools: a claude Harness agent reaches tools through muster only, where its toolset is checked; drop the 2 ' +
        'extra binding(s)',
      'extraAgentSpec.tools: a claude Harness agent reaches tools through muster only, where its toolset is checked',
    ]);
  });

  it('requires a toolset', () => {
    expect(reasons({ values: { agent: {} }, toolsetCheck: undefined })).toEqual({ code: 'invalid_request', reasons: [
      'toolset is required on a claude Harness agent (Harness claude): name its read-only tools, e.g. toolset: ' +
      '["preset:read-only"]'] });
  });

  it('refuses the tools muster reports as not read-only', () => {
    expect(reasons({ toolsetCheck: { resolution: { tools: [{ name: 'x_kubernetes_delete', readOnly: false }],
      signInRequired: [], unmatched: [], agentPlatformTools: [] } } }).reasons[0])
      .toMatch(/^toolset reaches tools that are not marked read-only \(no readOnlyHint\): x_kubernetes_delete;/);
  });

  it.each([
    ['muster unreachable', { kind: 'unreachable', detail: 'connect ECONNREFUSED 127.0.0.1:1' }, 'backend_error'],
    ['muster answering an error', { kind: 'error', detail: 'muster answered an error: boom' }, 'backend_error'],
    ['muster refusing the token', { kind: 'unauthorized', detail: 'muster refused the token (401)' }, 'unauthenticated'],
    ['no muster client', { kind: 'unconfigured' }, 'backend_error'],
    ['no token', { kind: 'no-token' }, 'unauthenticated'],
  ] as const)('fails closed on %s, the unchecked toolset first', (_name, failure, code) => {
    const refusal = reasons({ toolsetCheck: { failure }, requestedEgress: ['https://evil.example.com'] });
    expect(refusal.code).toBe(code);
    expect(refusal.reasons[0]).toBe(uncheckedToolset(failure).reason);
    expect(refusal.reasons[0]).toMatch(/^toolset could not be checked.*a claude Harness agent is written only once its toolset is known to be read-only$/);
    expect(refusal.reasons).toHaveLength(2);
  });
});

describe('claudeToolset', () => {
  it('is the values\' toolset, or undefined when there is none to resolve', () => {
    expect(claudeToolset({ toolset: ['preset:read-only'] })).toEqual(['preset:read-only']);
    expect(claudeToolset({ toolset: [] })).toBeUndefined();
    expect(claudeToolset({})).toBeUndefined();
  });
});

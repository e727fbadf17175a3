/**
 * The claude-Harness guard end to end below the service: the toolset check (service/writes) over the muster
 * resolver against the sandbox's muster double, then the pure decision, for the claims the guard makes.
 */
import { startMuster, type Muster } from '@agent-manager/kube-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeGuardDecision, type ClaudeGuardDecision } from '../core/guards/claude-guard.js';
import { networkNote } from '../core/guards/system-prompt.js';
import { checkClaudeToolset } from '../service/guards/claude-toolset-check.js';
import { MusterToolsetResolver } from './muster-toolset-resolver.js';

let muster: Muster;
const resolver = new MusterToolsetResolver({ fetch, version: 'test' });
const ORIGINS = ['https://github.com'];

beforeAll(async () => {
  muster = await startMuster({ tokens: { 'jane-token': 'jane@example.com' } });
});
afterAll(() => muster.stop());

type Over = { token?: string; url?: string; values?: object };

async function guard(toolset: string[], over: Over = {}): Promise<ClaudeGuardDecision> {
  const values = { agent: { name: 'reviewer', systemMessage: 'Review pull requests.' }, toolset, ...over.values };
  const toolsetCheck = await checkClaudeToolset({ resolver, musterUrl: over.url ?? muster.url, oauth: true },
    { token: over.token ?? 'jane-token' }, toolset);
  return claudeGuardDecision({ harness: 'claude', harnessEgress: ORIGINS, values, caller: 'jane@example.com',
    checkedAt: '2026-12-06T18:00:00Z', toolsetCheck });
}

const refusal = async (toolset: string[], over = {}) => {
  const decision = await guard(toolset, over);
  if (!('refuse' in decision)) throw new Error(`expected a refusal, got ${JSON.stringify(decision)}`);
  return decision.refuse;
};

describe('the claude-Harness guard against the muster double', () => {
  it('accepts preset:read-only: the egress and the network note written, the verdict naming every tool', async () => {
    const decision = await guard(['preset:read-only']);
    if (!('allow' in decision)) throw new Error(JSON.stringify(decision));
    expect(decision.allow.values.agent).toEqual({ name: 'reviewer', egress: ORIGINS,
      systemMessage: `Review pull requests.\n\n${networkNote(ORIGINS)}` });
    expect(decision.allow.guard).toMatchObject({ harness: 'claude', caller: 'jane@example.com' });
    expect(decision.allow.guard.tools).toContainEqual({ name: 'x_agent-manager_list_agents', readOnly: true });
    expect(decision.allow.guard.tools.every((t) => t.readOnly)).toBe(true);
  });

  it('refuses preset:full, naming the platform writes and the tools without readOnlyHint', async () => {
    const { code, reasons } = await refusal(['preset:full']);
    expect(code).toBe('invalid_request');
    expect(reasons[0]).toMatch(/^toolset reaches tools a claude Harness agent may not use .*x_kagent_invoke_agent_instance/);
    expect(reasons[1]).toMatch(/^toolset reaches tools that are not marked read-only \(no readOnlyHint\): .*x_prometheus_query_range/);
  });

  it('refuses a server that needs the caller\'s sign-in', async () => {
    expect((await refusal(['preset:read-only', 'server:github'])).reasons).toEqual([
      'toolset names servers whose tools are unknown until you sign in to them (github): sign in through muster, then ' +
      'write the agent again']);
  });

  it('refuses requireApproval whatever muster says', async () => {
    expect((await refusal(['preset:read-only'], { values: { muster: { requireApproval: true } } })).reasons[0])
      .toMatch(/^muster\.requireApproval: a claude Harness agent takes no requireApproval binding/);
  });

  it('fails closed with 401 when muster refuses the caller\'s token', async () => {
    expect(await refusal(['preset:read-only'], { token: 'stolen' })).toEqual({ code: 'unauthenticated', reasons: [
      `toolset could not be checked with muster's filter_tools (muster ${muster.url}: muster refused the token (401)); ` +
      'a claude Harness agent is written only once its toolset is known to be read-only'] });
  });

  it('fails closed with 502 when muster is stopped', async () => {
    const stopped = await startMuster({ tokens: { 'jane-token': 'jane' } });
    await stopped.stop();
    const { code, reasons } = await refusal(['preset:read-only'], { url: stopped.url });
    expect(code).toBe('backend_error');
    expect(reasons[0]).toMatch(/^toolset could not be checked with muster's filter_tools \(muster .*: fetch failed/);
  });
});

/**
 * The muster ToolsetResolver against the sandbox's muster double on loopback: it resolves as the caller,
 * follows pages, learns the servers awaiting sign-in from the explicit selectors, and fails closed with a
 * typed error (unreachable, an error answer, a refused token, too many pages, no answer in time).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CATALOGUE, startMuster, type Catalogue, type Muster } from '@agent-manager/kube-sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claudeGuardDecision } from '../core/guards/claude-guard.js';
import { ToolsetCheckError } from '../service/guards/toolset-port.js';
import { MusterToolsetResolver } from './muster-toolset-resolver.js';

let muster: Muster;
let requests = 0;
const countingFetch: typeof fetch = (input, init) => {
  requests++;
  return fetch(input, init);
};
const resolver = new MusterToolsetResolver({ fetch: countingFetch, version: 'test' });

beforeAll(async () => {
  muster = await startMuster({ tokens: { 'jane-token': 'jane' } });
});
afterEach(() => {
  muster.fault = undefined;
});
afterAll(() => muster.stop());

const resolve = (toolset: string[], token = 'jane-token', url = muster.url) =>
  resolver.resolve({ url, token, toolset });

const failure = async (promise: Promise<unknown>): Promise<ToolsetCheckError> => {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolsetCheckError);
  return err as ToolsetCheckError;
};

const bigCatalogue = (tools: number): Catalogue => ({ servers: [{ name: 'big', labels: {},
  tools: Array.from({ length: tools }, (_, i) => ({ name: `t${String(i).padStart(4, '0')}`,
    annotations: { readOnlyHint: true } })) }], own: [] });

describe('MusterToolsetResolver', () => {
  it('resolves a toolset and preset:agent-platform as the caller, through the fetch it was given', async () => {
    const before = { calls: muster.calls.length, requests };
    const res = await resolve(['preset:read-only']);
    expect(res.tools.map((t) => t.name)).toContain('x_agent-manager_list_agents');
    expect(res.tools.every((t) => t.readOnly)).toBe(true);
    expect(res.tools.find((t) => t.name === 'x_kubernetes_get')).toEqual({ name: 'x_kubernetes_get', readOnly: true,
      server: 'kubernetes' });
    expect(res.agentPlatformTools).toContainEqual({ name: 'x_agent-manager_create_agent', readOnly: false,
      server: 'agent-manager' });
    // The preset's readOnly rule could span the signed-out github server: only explicit selectors name servers.
    expect([res.signInRequired, res.unmatched]).toEqual([[], []]);
    const calls = muster.calls.slice(before.calls);
    expect(calls.map((c) => [c.subject, c.arguments])).toEqual([
      ['jane', { toolset: ['preset:read-only'], limit: 200, offset: 0 }],
      ['jane', { toolset: ['preset:agent-platform'], limit: 200, offset: 0 }],
    ]);
    expect(requests).toBeGreaterThan(before.requests);
  });

  it('reports the servers the explicit selectors name that await sign-in, and the unmatched selectors', async () => {
    const res = await resolve(['preset:read-only', 'server:github', 'tool:x_gone_tool']);
    expect(res.signInRequired).toEqual(['github']);
    expect(res.unmatched).toEqual(['server:github', 'tool:x_gone_tool']);
  });

  it('reads a tool without annotations as not read-only, so the guard refuses preset:full naming it', async () => {
    const res = await resolve(['preset:full']);
    expect(res.tools).toContainEqual({ name: 'x_prometheus_query_range', readOnly: false, server: 'prometheus' });
    const decision = claudeGuardDecision({ harness: 'claude', harnessEgress: [], caller: 'jane', checkedAt: 'now',
      values: { agent: {}, toolset: ['preset:full'] }, toolsetCheck: { resolution: res } });
    expect(decision).toEqual({ refuse: { code: 'invalid_request', reasons: [
      expect.stringContaining('x_agent-manager_create_agent, x_agent-manager_delete_agent, x_kagent_invoke_agent_instance'),
      expect.stringMatching(/^toolset reaches tools that are not marked read-only \(no readOnlyHint\): .*x_prometheus_query_range/),
    ] } });
  });

  it('follows every page of a long resolution', async () => {
    const big = await startMuster({ tokens: { t: 'jane' }, catalogue: bigCatalogue(450) });
    try {
      const res = await resolver.resolve({ url: big.url, token: 't', toolset: ['server:big'] });
      expect(res.tools).toHaveLength(450);
      expect(big.calls.filter((c) => c.arguments.toolset instanceof Array && c.arguments.toolset[0] === 'server:big')
        .map((c) => [c.arguments.offset, c.arguments.limit])).toEqual([[0, 200], [200, 200], [400, 200], [0, 1]]);
    } finally {
      await big.stop();
    }
  });

  it('fails rather than answer part of a resolution longer than 20 pages', async () => {
    const big = await startMuster({ tokens: { t: 'jane' }, catalogue: bigCatalogue(4001) });
    try {
      const err = await failure(resolver.resolve({ url: big.url, token: 't', toolset: ['server:big'] }));
      expect(err.failure.kind).toBe('error');
      expect(err.failure.detail).toMatch(/more than 4000 tools; the resolution was not followed to its end$/);
    } finally {
      await big.stop();
    }
  });

  it('fails as unauthorized (401) when muster refuses the token', async () => {
    const err = await failure(resolve(['preset:read-only'], 'someone-else'));
    expect([err.failure.kind, err.code]).toEqual(['unauthorized', 'unauthenticated']);
    expect(err.failure.detail).toBe(`muster ${muster.url}: muster refused the token (401)`);
  });

  it.each([
    ['tool-error', /: filter_tools toolset \[preset:read-only\]: muster answered an error: muster failed on purpose/],
    ['http-error', /: muster answered HTTP 500$/],
  ] as const)('fails as an error (502) when muster answers %s', async (fault, detail) => {
    muster.fault = fault;
    const err = await failure(resolve(['preset:read-only']));
    expect([err.failure.kind, err.code]).toEqual(['error', 'backend_error']);
    expect(err.failure.detail).toMatch(detail);
  });

  it('fails as unreachable when muster is stopped', async () => {
    const stopped = await startMuster({ tokens: { t: 'jane' } });
    await stopped.stop();
    const err = await failure(resolver.resolve({ url: stopped.url, token: 't', toolset: ['preset:none'] }));
    expect([err.failure.kind, err.code]).toEqual(['unreachable', 'backend_error']);
    expect(err.failure.detail).toMatch(/^muster http:\/\/127\.0\.0\.1:\d+\/mcp: fetch failed \(ECONNREFUSED\)$/);
  });

  it('fails as unreachable when muster does not answer within the timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
      const quick = new MusterToolsetResolver({ fetch, version: 'test', timeoutMs: 300 });
      const err = await failure(quick.resolve({ url, token: 't', toolset: ['preset:none'] }));
      expect(err.failure).toEqual({ kind: 'unreachable', detail: `muster ${url}: no answer within 0.3s` });
    } finally {
      silent.closeAllConnections();
      await new Promise((done) => silent.close(done));
    }
  });
});

describe('the default catalogue', () => {
  it('holds invoke_agent_instance under a server prefix', () => {
    expect(DEFAULT_CATALOGUE.servers.find((s) => s.name === 'kagent')?.tools.map((t) => t.name))
      .toContain('invoke_agent_instance');
  });
});

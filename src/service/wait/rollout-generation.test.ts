/**
 * Waits and status reads judged by generation, on the sandbox with a reconcile delay and
 * real watches: a write's `wait` answers only once helm-controller has observed the
 * generation the write left, a status read right after a write is `progressing` and names
 * the stage behind, a change the chart refuses is `failed` and never `ready` first, and a
 * `generation` argument holds a wait until the release reaches it. Every wait is on events
 * (watches, progress), never a sleep; the only timing claim is `waitedSeconds` at least the
 * configured delay, which the two helm-controller reconciles of an upgrade take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from '../testing/fixture.js';

const DELAY_MS = 100;

/**
 * The release's observed generation as the sandbox holds it at this moment. A claim about what
 * a wait says before helm-controller observed a write is checked only for the messages that
 * came while it had not: on a loaded machine the reconcile may land before the first message.
 */
const observed = (f: ServiceFixture): number =>
  (f.sandbox.store.get('helmreleases', 'kagent', 'slow') as { status?: { observedGeneration?: number } })
    .status?.observedGeneration ?? 0;
const BEHIND = /^HelmRelease generation \d+ not yet (observed|attempted|judged) by helm-controller/;

describe('rollouts tracked by generation', () => {
  let f: ServiceFixture;
  beforeAll(async () => {
    f = await startServiceFixture({ sandbox: { controllers: true, reconcileDelayMs: DELAY_MS } });
    const created = await f.service.createAgent(f.ctx(), { name: 'slow', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 });
    expect(created.status?.verdict).toBe('ready');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('create_agent with wait answers the agent as read after the wait: rendered, ready', async () => {
    const created = await f.service.createAgent(f.ctx(), { name: 'fresh', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 });
    expect(created).toMatchObject({ generation: 1, timedOut: false, status: { verdict: 'ready', generation: 1, observedGeneration: 1 } });
    expect(created.agent).toMatchObject({ exists: true, ready: true, accepted: true });
  });

  it('a status read right after a write is progressing and names the stage behind', async () => {
    const updated = await f.service.updateAgent(f.ctx(), { name: 'slow', description: 'read at once' });
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'slow' });
    if (observed(f) < updated.generation!) {
      // helm-controller had not observed the write when the read ended, so the read cannot say ready.
      expect(status).toMatchObject({
        verdict: 'progressing', generation: updated.generation, observedGeneration: updated.generation! - 1,
      });
      expect(status.summary).toBe(
        `HelmRelease generation ${updated.generation} not yet observed by helm-controller (observed ${updated.generation! - 1})`);
    } else {
      expect(status.generation).toBe(updated.generation);
    }
    await f.service.waitForAgent(f.ctx(), { name: 'slow', generation: updated.generation, timeoutSeconds: 60 });
  });

  it('update_agent with wait answers once the release reached the written generation, the agent as kagent then has it', async () => {
    let generationWritten = (f.sandbox.store.get('helmreleases', 'kagent', 'slow') as { metadata: { generation: number } })
      .metadata.generation + 1;
    const messages: string[] = [];
    const early: string[] = [];
    const progress = (m: string): void => {
      messages.push(m);
      if (observed(f) < generationWritten) early.push(m);
    };
    const updated = await f.service.updateAgent(f.ctx({ progress }), { name: 'slow', description: 'v2', wait: 60 });
    generationWritten = updated.generation!;
    expect(updated).toMatchObject({ timedOut: false, status: { verdict: 'ready', observedGeneration: updated.generation } });
    expect(updated.waitedSeconds).toBeGreaterThanOrEqual(DELAY_MS / 1000);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of early) expect(message).toMatch(BEHIND);
    // The answer's agent is the one read after the wait: kagent's Agent already carries the change.
    expect(updated.agent.description).toBe('v2');
    expect(f.sandbox.store.get('agents', 'kagent', 'slow').spec).toMatchObject({ description: 'v2' });
  });

  it('reports a change the chart refuses as failed, never ready first', async () => {
    // A colleague writes values the chart refuses straight to the release (our own writes check the schema first).
    const live = structuredClone(f.sandbox.store.get('helmreleases', 'kagent', 'slow')) as { spec: { values: { agent: Record<string, unknown> } } };
    live.spec.values.agent.runtime = 'rust';
    const written = f.sandbox.store.update('helmreleases', live as never) as { metadata: { generation: number } };
    const messages: string[] = [];
    const early: string[] = [];
    const progress = (m: string): void => {
      messages.push(m);
      if (observed(f) < written.metadata.generation) early.push(m);
    };
    const result = await f.service.waitForAgent(f.ctx({ progress }),
      { name: 'slow', generation: written.metadata.generation, timeoutSeconds: 60 });
    expect(result).toMatchObject({ verdict: 'failed', timedOut: false, observedGeneration: written.metadata.generation });
    expect(result.summary).toMatch(/^HelmRelease is not ready \(UpgradeFailed\)/);
    for (const message of early) expect(message).toMatch(BEHIND);
    expect(messages.some((m) => m.startsWith('Agent is Ready'))).toBe(false);
    const repaired = await f.service.updateAgent(f.ctx(), { name: 'slow', runtime: 'go', wait: 60 });
    expect(repaired.status?.verdict).toBe('ready');
  });

  it('holds a wait with a generation until the release has reached it', async () => {
    const before = await f.service.getAgentStatus(f.ctx(), { name: 'slow' });
    expect(before.verdict).toBe('ready');
    const next = before.generation! + 1;
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => { waiting = resolve; });
    const messages: string[] = [];
    const wait = f.service.waitForAgent(f.ctx({ progress: (m) => { messages.push(m); waiting(); } }), { name: 'slow', generation: next, timeoutSeconds: 60 });
    await started;
    // Ready at its own generation, yet the wait holds: the generation asked for is not written yet.
    expect(messages[0]).toBe(`HelmRelease generation ${next} not yet written (the release is at generation ${before.generation})`);
    const updated = await f.service.updateAgent(f.ctx(), { name: 'slow', description: 'v3' });
    expect(updated.generation).toBe(next);
    const result = await wait;
    expect(result).toMatchObject({ verdict: 'ready', timedOut: false, generation: next, observedGeneration: next });
  });

  it('rollback_agent with wait answers once the rollback rolled out, the agent as read then', async () => {
    const rolled = await f.service.rollbackAgent(f.ctx(), { name: 'slow', revision: 1, wait: 60 });
    expect(rolled).toMatchObject({ rolledBackTo: 1, timedOut: false, status: { verdict: 'ready', observedGeneration: rolled.generation } });
    expect(rolled.waitedSeconds).toBeGreaterThanOrEqual(DELAY_MS / 1000);
    expect(rolled.agent).toMatchObject({ exists: true, ready: true });
    expect(rolled.agent.description).toBeUndefined();
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'slow', revision: 1, wait: 5, dryRun: true })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses a generation that is not a whole number of at least 1', async () => {
    await expect(f.service.waitForAgent(f.ctx(), { name: 'slow', generation: 0 })).rejects.toThrow(
      'invalid request: generation must be a whole number of at least 1 (a write\'s generation), got 0');
  });
});

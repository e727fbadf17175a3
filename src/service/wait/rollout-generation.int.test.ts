/**
 * Waits and status reads judged by generation, on the sandbox with its controllers and real
 * watches: a write's `wait` answers only once helm-controller has observed the generation the
 * write left, a status read right after a write is `progressing` and names the stage behind, a
 * change the chart refuses is `failed` and never `ready` first, and a `generation` argument holds
 * a wait until the release reaches it. A failure the release has since recovered from is not quoted as the
 * reason of a later rollout, and a suspended release's change is answered at once. "Not observed yet" is a
 * controller held back on the agent for as long as the test needs; every wait is on events, never a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';

/** The wait between a change and its reconcile: an upgrade's second helm-controller reconcile waits it out. */
const DELAY_MS = 50;
const BEHIND = /^HelmRelease generation \d+ not yet (observed|attempted|judged) by helm-controller/;
const SPEC = { modelConfig: 'default-model-config', toolset: ['preset:none'] };
/** One agent per test, so the tests run at once. */
const AGENTS = ['read-at-once', 'updated', 'refused', 'held', 'rolled', 'relapsed', 'paused'];

type Release = {
  metadata: { generation: number }; spec: { suspend?: boolean; values: { agent: Record<string, unknown> } };
};
type Json = Record<string, unknown>;

describe.concurrent('rollouts tracked by generation', () => {
  let f: ServiceFixture;
  beforeAll(async () => {
    f = await startServiceFixture({ sandbox: { controllers: true, reconcileDelayMs: DELAY_MS } });
    const created = await Promise.all(
      AGENTS.map((name) => f.service.createAgent(f.ctx(), { name, ...SPEC, wait: 60 })));
    expect(created.map((c) => c.status?.verdict)).toEqual(AGENTS.map(() => 'ready'));
  });
  afterAll(async () => {
    await f?.close();
  });

  const release = (name: string): Release => f.sandbox.store.get('helmreleases', 'kagent', name) as Release;
  /** Keep helm-controller from reconciling `name` until the returned function is called. */
  const holdHelm = (name: string) => f.sandbox.controllers!.hold({ controllers: ['helm-controller'], name });

  it('create_agent with wait answers the agent as read after the wait: rendered, ready', async ({ expect }) => {
    const created = await f.service.createAgent(f.ctx(), { name: 'fresh', ...SPEC, wait: 60 });
    expect(created).toMatchObject({ generation: 1, timedOut: false, status: { verdict: 'ready', generation: 1, observedGeneration: 1 } });
    expect(created.agent).toMatchObject({ exists: true, ready: true, accepted: true });
  });

  it('a status read right after a write is progressing and names the stage behind', async ({ expect }) => {
    const resume = holdHelm('read-at-once');
    try {
      const updated = await f.service.updateAgent(f.ctx(), { name: 'read-at-once', description: 'read at once' });
      const status = await f.service.getAgentStatus(f.ctx(), { name: 'read-at-once' });
      expect(status).toMatchObject({
        verdict: 'progressing', generation: updated.generation, observedGeneration: updated.generation! - 1,
      });
      expect(status.summary).toBe(
        `HelmRelease generation ${updated.generation} not yet observed by helm-controller (observed ${updated.generation! - 1})`);
      resume();
      const after = await f.service.waitForAgent(f.ctx(), { name: 'read-at-once', generation: updated.generation, timeoutSeconds: 60 });
      expect(after).toMatchObject({ verdict: 'ready', observedGeneration: updated.generation });
    } finally {
      resume();
    }
  });

  it('update_agent with wait answers once the release reached the written generation, the agent as kagent then has it', async ({ expect }) => {
    const resume = holdHelm('updated');
    const early: string[] = [];
    const messages: string[] = [];
    let held = true;
    const progress = (m: string): void => {
      messages.push(m);
      if (!held) return;
      // Told while helm-controller could not have observed the write; then it may go on.
      early.push(m);
      held = false;
      resume();
    };
    try {
      const updated = await f.service.updateAgent(f.ctx({ progress }), { name: 'updated', description: 'v2', wait: 60 });
      expect(updated).toMatchObject({ timedOut: false, status: { verdict: 'ready', observedGeneration: updated.generation } });
      expect(updated.waitedSeconds).toBeGreaterThanOrEqual(DELAY_MS / 1000);
      expect(early).toHaveLength(1);
      expect(early[0]).toMatch(BEHIND);
      expect(messages.at(-1)).toBe(updated.status?.summary);
      // The answer's agent is the one read after the wait: kagent's Agent already carries the change.
      expect(updated.agent.description).toBe('v2');
      expect(f.sandbox.store.get('agents', 'kagent', 'updated').spec).toMatchObject({ description: 'v2' });
    } finally {
      resume();
    }
  });

  it('reports a change the chart refuses as failed, never ready first', async ({ expect }) => {
    const resume = holdHelm('refused');
    const messages: string[] = [];
    const early: string[] = [];
    let held = true;
    const progress = (m: string): void => {
      messages.push(m);
      if (!held) return;
      early.push(m);
      held = false;
      resume();
    };
    try {
      // A colleague writes values the chart refuses straight to the release (our own writes check the schema first).
      const live = structuredClone(release('refused'));
      live.spec.values.agent.runtime = 'rust';
      const written = f.sandbox.store.update('helmreleases', live as never) as Release;
      const result = await f.service.waitForAgent(f.ctx({ progress }),
        { name: 'refused', generation: written.metadata.generation, timeoutSeconds: 60 });
      expect(result).toMatchObject({ verdict: 'failed', timedOut: false, observedGeneration: written.metadata.generation });
      expect(result.summary).toMatch(/^HelmRelease is not ready \(UpgradeFailed\)/);
      expect(early).toHaveLength(1);
      expect(early[0]).toMatch(BEHIND);
      expect(messages.some((m) => m.startsWith('Agent is Ready'))).toBe(false);
    } finally {
      resume();
    }
    const repaired = await f.service.updateAgent(f.ctx(), { name: 'refused', runtime: 'go', wait: 60 });
    expect(repaired.status?.verdict).toBe('ready');
  });

  it('holds a wait with a generation until the release has reached it', async ({ expect }) => {
    const before = await f.service.getAgentStatus(f.ctx(), { name: 'held' });
    expect(before.verdict).toBe('ready');
    const next = before.generation! + 1;
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => { waiting = resolve; });
    const messages: string[] = [];
    const wait = f.service.waitForAgent(f.ctx({ progress: (m) => { messages.push(m); waiting(); } }), { name: 'held', generation: next, timeoutSeconds: 60 });
    await started;
    // Ready at its own generation, yet the wait holds: the generation asked for is not written yet.
    expect(messages[0]).toBe(`HelmRelease generation ${next} not yet written (the release is at generation ${before.generation})`);
    const updated = await f.service.updateAgent(f.ctx(), { name: 'held', description: 'v3' });
    expect(updated.generation).toBe(next);
    const result = await wait;
    expect(result).toMatchObject({ verdict: 'ready', timedOut: false, generation: next, observedGeneration: next });
  });

  it('rollback_agent with wait answers once the rollback rolled out, the agent as read then', async ({ expect }) => {
    const updated = await f.service.updateAgent(f.ctx(), { name: 'rolled', description: 'v2', wait: 60 });
    expect(updated.status?.verdict).toBe('ready');
    const rolled = await f.service.rollbackAgent(f.ctx(), { name: 'rolled', revision: 1, wait: 60 });
    expect(rolled).toMatchObject({ rolledBackTo: 1, timedOut: false, status: { verdict: 'ready', observedGeneration: rolled.generation } });
    expect(rolled.waitedSeconds).toBeGreaterThanOrEqual(DELAY_MS / 1000);
    expect(rolled.agent).toMatchObject({ exists: true, ready: true });
    expect(rolled.agent.description).toBeUndefined();
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'rolled', revision: 1, wait: 5, dryRun: true })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses a generation that is not a whole number of at least 1', async ({ expect }) => {
    await expect(f.service.waitForAgent(f.ctx(), { name: 'held', generation: 0 })).rejects.toThrow(
      'invalid request: generation must be a whole number of at least 1 (a write\'s generation), got 0');
  });

  it('does not quote a failure the release recovered from as the reason a later rollout is behind', async ({ expect }) => {
    // The scenario: values the chart refuses written straight to the release, a rollback, an update.
    const live = structuredClone(release('relapsed'));
    live.spec.values.agent.runtime = 'rust';
    const written = f.sandbox.store.update('helmreleases', live as never) as Release;
    const failed = await f.service.waitForAgent(f.ctx(), { name: 'relapsed', generation: written.metadata.generation, timeoutSeconds: 60 });
    expect(failed.summary).toMatch(/^HelmRelease is not ready \(UpgradeFailed\)/);
    expect((await f.service.rollbackAgent(f.ctx(), { name: 'relapsed', revision: 1, wait: 60 })).status?.verdict).toBe('ready');
    // The sandbox's times are to the second: the failure is made a minute old, as it would be on a cluster.
    for (const event of f.sandbox.store.list('events', { namespace: 'kagent' }).items as Json[]) {
      if (event.reason !== 'UpgradeFailed' || (event.involvedObject as Json).name !== 'relapsed') continue;
      const before = new Date(Date.parse(String(event.lastTimestamp)) - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      f.sandbox.store.update('events', { ...event, firstTimestamp: before, lastTimestamp: before } as never);
    }
    // Updated again. kagent, held, renders the new generation once the wait has seen it behind: observed, its
    // pods not ready yet. The wait names that stage, never the failure of before.
    const resume = f.sandbox.controllers!.hold({ controllers: ['kagent-agents'], name: 'relapsed' });
    const messages: string[] = [];
    let rendered = false;
    const progress = (m: string): void => {
      messages.push(m);
      if (rendered) {
        resume();
      } else if (/^Agent generation \d+ not yet observed by kagent/.test(m)) {
        rendered = true;
        const agent = f.sandbox.store.get('agents', 'kagent', 'relapsed') as Json & { metadata: { generation: number } };
        const at = new Date().toISOString();
        f.sandbox.store.updateStatus('agents', { ...agent, status: { observedGeneration: agent.metadata.generation, conditions: [
          { type: 'Accepted', status: 'True', reason: 'AgentReconciled', message: '', lastTransitionTime: at },
          { type: 'Ready', status: 'False', reason: 'DeploymentNotReady', message: '0/1 pods are ready', lastTransitionTime: at },
        ] } } as never);
      }
    };
    try {
      const updated = await f.service.updateAgent(f.ctx(), { name: 'relapsed', description: 'again' });
      const result = await f.service.waitForAgent(f.ctx({ progress }),
        { name: 'relapsed', generation: updated.generation, timeoutSeconds: 60 });
      expect(result.verdict).toBe('ready');
      expect(result.events?.some((e) => e.reason === 'UpgradeFailed')).toBe(true);
      expect(messages).toContain('Agent is not ready: DeploymentNotReady: 0/1 pods are ready');
      expect(messages.filter((m) => m.includes('UpgradeFailed'))).toEqual([]);
    } finally {
      resume();
    }
  });

  it('answers a wait on a suspended release at once: failed, suspended, saying to resume it', async ({ expect }) => {
    const live = structuredClone(release('paused'));
    live.spec.suspend = true;
    f.sandbox.store.update('helmreleases', live as never);
    const updated = await f.service.updateAgent(f.ctx(), { name: 'paused', description: 'not applied', force: true, wait: 600 });
    expect(updated).toMatchObject({ timedOut: false, status: { verdict: 'failed', suspended: true } });
    expect(updated.status?.summary).toMatch(
      /^suspended: Flux does not reconcile it; resume it to apply changes \(generation \d+ is not applied; last attempted \d+\)$/);
    const waited = await f.service.waitForAgent(f.ctx(), { name: 'paused', generation: updated.generation, timeoutSeconds: 600 });
    expect(waited).toMatchObject({ verdict: 'failed', suspended: true, timedOut: false });
    const { agents } = await f.service.listAgents(f.ctx(), { details: false });
    expect(agents.find((a) => a.name === 'paused')).toMatchObject({ suspended: true, ready: false });
  });
});

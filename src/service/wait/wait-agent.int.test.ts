/**
 * wait_for_agent through the real AgentService on the sandbox, over real watches
 * (@kubernetes/client-node against the sandbox API server): following a new agent to
 * ready with the controllers running, ending on a crash-looping pod, resuming a watch
 * that was answered 410 Gone or dropped by listing again, and leaving no watch open when
 * the client goes or the server shuts down. Tests on agents of their own run at once; those
 * that count the watches or arm faults of the whole sandbox run alone.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { eventually } from '../../../test/support/eventually.js';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';
import { seedAgentCr, seedRelease, seedWorkload } from '../../../test/support/service/seed-agents.js';

const SA = 'system:serviceaccount:kagent:agent-manager';

const SPEC = { modelConfig: 'default-model-config', toolset: ['preset:none'] };

describe.concurrent('wait_for_agent with the controllers running', () => {
  let f: ServiceFixture;
  beforeAll(async () => {
    // A rollout takes more than six controller steps of 50 ms, so a write's wait takes time.
    f = await startServiceFixture({ sandbox: { controllers: true, reconcileDelayMs: 50, authorization: 'rbac' } });
    await Promise.all([
      f.service.createAgent(f.ctx(), { name: 'updated', ...SPEC, wait: 60 }),
      f.service.createAgent(f.ctx(), { name: 'doomed', ...SPEC, wait: 60 }),
      f.service.createAgent(f.ctx(), { name: 'kept', ...SPEC, description: 'as created' }),
    ]);
  });
  afterAll(async () => {
    await f?.close();
  });

  // Alone: it counts every watch of the sandbox.
  it('follows a new agent from progressing to ready, telling each change as progress', { concurrent: false }, async ({ expect }) => {
    // The controllers wait for the wait's first message, so the rollout is under way when the wait starts.
    const resume = f.sandbox.controllers!.hold({ name: 'waited' });
    const baseline = f.sandbox.store.objects.hub.subscriberCount;
    const messages: string[] = [];
    const started = Date.now();
    let result;
    try {
      await f.service.createAgent(f.ctx(), { name: 'waited', ...SPEC });
      result = await f.service.waitForAgent(f.ctx({ progress: (m) => { messages.push(m); resume(); } }),
        { name: 'waited', timeoutSeconds: 30 });
    } finally {
      resume();
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(result).toMatchObject({ name: 'waited', namespace: 'kagent', verdict: 'ready', timedOut: false });
    expect(result.summary).toBe('Agent is Ready; 1/1 pods available');
    // The rollout takes several 50 ms controller steps, so the wait took time, and no more
    // than the call did (waitedSeconds is rounded to a tenth).
    expect(result.waitedSeconds).toBeGreaterThan(0);
    expect(result.waitedSeconds).toBeLessThanOrEqual(elapsedSeconds + 0.05);
    expect(messages[0]).not.toBe(result.summary);
    expect(messages.at(-1)).toBe(result.summary);
    expect(messages.length).toBeGreaterThan(1);
    // Every message is news: no summary is told twice in a row.
    expect(messages.every((m, i) => i === 0 || m !== messages[i - 1])).toBe(true);
    // The watches are gone once the wait has answered.
    await eventually(() => (f.sandbox.store.objects.hub.subscriberCount === baseline ? true : undefined), 5000, 'no watch of the wait left');
  });

  it('create_agent with wait answers once the agent is ready, the Status embedded', async ({ expect }) => {
    const started = Date.now();
    const created = await f.service.createAgent(f.ctx(), { name: 'created-waiting', ...SPEC, wait: 60 });
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(created).toMatchObject({ created: { helmRelease: true }, timedOut: false, status: { verdict: 'ready', summary: 'Agent is Ready; 1/1 pods available' } });
    expect(created.waitedSeconds).toBeGreaterThan(0);
    expect(created.waitedSeconds).toBeLessThanOrEqual(elapsedSeconds + 0.05);
  });

  it('update_agent with wait answers with the Status once the agent is ready again', async ({ expect }) => {
    const updated = await f.service.updateAgent(f.ctx(), { name: 'updated', description: 'waited for', wait: 60 });
    expect(updated).toMatchObject({ changed: ['agent.description'], timedOut: false, status: { verdict: 'ready' } });
  });

  it('refuses wait with dryRun, with commit mode and out of 0..600, writing nothing', async ({ expect }) => {
    const spec = { name: 'never-written', modelConfig: 'default-model-config', toolset: ['preset:none'] };
    await expect(f.service.createAgent(f.ctx(), { ...spec, wait: 30, dryRun: true })).rejects.toThrow(
      'invalid request: wait cannot be combined with dryRun: a dry run stores nothing, so there is no rollout to wait for');
    await expect(f.service.createAgent(f.ctx(), { ...spec, wait: 30, mode: 'commit' })).rejects.toThrow(
      /^invalid request: wait needs mode apply: in commit mode nothing reaches the cluster until the pull request is merged/);
    await expect(f.service.createAgent(f.ctx(), { ...spec, wait: 601 })).rejects.toThrow(
      'invalid request: wait must be a whole number of seconds from 0 to 600 (0: answer at once, without waiting), got 601');
    await expect(f.service.updateAgent(f.ctx(), { name: 'kept', description: 'x', wait: -1 })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(f.sandbox.store.find('helmreleases', 'kagent', 'never-written')).toBeUndefined();
    const values = (f.sandbox.store.get('helmreleases', 'kagent', 'kept').spec as { values: { agent: { description?: string } } }).values;
    expect(values.agent.description).toBe('as created');
  });

  it('waits for a deleted agent until its HelmRelease and Agent are gone', async ({ expect }) => {
    await f.service.deleteAgent(f.ctx(), { name: 'doomed' });
    const result = await f.service.waitForAgent(f.ctx(), { name: 'doomed', until: 'deleted', timeoutSeconds: 30 });
    expect(result).toMatchObject({ timedOut: false, agent: { exists: false }, helmRelease: { exists: false } });
    expect(f.sandbox.store.find('helmreleases', 'kagent', 'doomed')).toBeUndefined();
    expect(f.sandbox.store.find('agents', 'kagent', 'doomed')).toBeUndefined();
  });
});

describe.concurrent('wait_for_agent on a seeded agent', () => {
  let f: ServiceFixture;
  const shutdown = new AbortController();
  beforeAll(async () => {
    f = await startServiceFixture({ shutdown: shutdown.signal });
  });
  afterAll(async () => {
    await f?.close();
  });

  const seedProgressing = (name: string): void => {
    seedRelease(f.sandbox, { name, ready: true, chartVersion: '0.6.1' });
    seedAgentCr(f.sandbox, { name, release: { name, namespace: 'kagent' }, accepted: true, ready: false });
    seedWorkload(f.sandbox, { name, available: 0, pods: [{ name: `${name}-pod`, ready: false }] });
  };
  const subscribers = () => f.sandbox.store.objects.hub.subscriberCount;
  // Without controllers, the API server's watches are the only subscribers of the store.
  const noWatchOpen = () => eventually(() => (subscribers() === 0 ? true : undefined), 5000, 'every watch closed');

  it('ends on failed when the pod starts crash-looping, naming it', async ({ expect }) => {
    seedProgressing('crashy');
    const seen: string[] = [];
    const result = await f.service.waitForAgent(f.ctx({
      progress: (m) => {
        seen.push(m);
        if (seen.length === 1) f.sandbox.faults.crashLoop({ namespace: 'kagent', pod: 'crashy-pod' });
      },
    }), { name: 'crashy', timeoutSeconds: 30 });
    expect(seen[0]).toMatch(/^not ready yet|^Deployment has 0\/1|^Agent is not ready/);
    expect(result).toMatchObject({ verdict: 'failed', timedOut: false });
    expect(result.summary).toMatch(/^pod crashy-pod container kagent is CrashLoopBackOff/);
  });

  it('answers the status with timedOut: true when the time is up', async ({ expect }) => {
    seedProgressing('slow');
    const result = await f.service.waitForAgent(f.ctx(), { name: 'slow', timeoutSeconds: 1 });
    expect(result).toMatchObject({ verdict: 'progressing', timedOut: true });
  });

  it('refuses a timeout outside 1..600 seconds, saying the range', async ({ expect }) => {
    await expect(f.service.waitForAgent(f.ctx(), { name: 'x', timeoutSeconds: 601 })).rejects.toThrow(
      'invalid request: timeoutSeconds must be a whole number of seconds from 1 to 600, got 601');
    await expect(f.service.waitForAgent(f.ctx(), { name: 'x', timeoutSeconds: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('answers 404 for an agent that does not exist, and at once for one already deleted', async ({ expect }) => {
    await expect(f.service.waitForAgent(f.ctx(), { name: 'nobody' })).rejects.toMatchObject({ code: 'not_found' });
    const gone = await f.service.waitForAgent(f.ctx(), { name: 'nobody', until: 'deleted' });
    expect(gone).toMatchObject({ timedOut: false, verdict: 'unknown' });
  });

  // Alone from here on: these arm faults for every watch of the sandbox, count its lists and its
  // watches, or shut it down.
  const lists = (resource: string) => f.sandbox.counters.count({ verb: 'list', resource, user: SA });
  /** Calls `then` once `resource` was listed `times` more times than now (the first list and a resume). */
  const afterLists = (resource: string, times: number, then: () => void): (() => void) => {
    const before = lists(resource);
    let armed = true;
    return () => {
      if (!armed) return;
      armed = false;
      void eventually(() => (lists(resource) - before >= times ? true : undefined), 5000, `${resource} listed again`).then(then);
    };
  };

  it('resumes a pods watch answered 410 Gone by listing again, and sees the crash loop after it', { concurrent: false }, async ({ expect }) => {
    seedProgressing('gone410');
    f.sandbox.faults.failNext({ verb: 'watch', resource: 'pods', code: 410, message: 'too old resource version: 1 (5)' });
    const crash = afterLists('pods', 2, () => f.sandbox.faults.crashLoop({ namespace: 'kagent', pod: 'gone410-pod' }));
    const result = await f.service.waitForAgent(f.ctx({ progress: crash }), { name: 'gone410', timeoutSeconds: 30 });
    expect(result).toMatchObject({ verdict: 'failed', timedOut: false });
  });

  it('resumes an Agent watch whose connection dropped, and sees the agent turn ready after it', { concurrent: false }, async ({ expect }) => {
    seedProgressing('dropped');
    f.sandbox.faults.failNext({ verb: 'watch', resource: 'agents.kagent.dev', drop: true });
    const turnReady = afterLists('agents.kagent.dev', 2, () => {
      const store = f.sandbox.store;
      const deployment = store.get('deployments', 'kagent', 'dropped');
      store.updateStatus('deployments', { ...deployment, status: { ...(deployment.status as object), readyReplicas: 1, availableReplicas: 1 } });
      const agent = store.get('agents', 'kagent', 'dropped');
      const conditions = [
        { type: 'Accepted', status: 'True', reason: 'Reconciled', message: '', lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
        { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: '', lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
      ];
      store.updateStatus('agents', { ...agent, status: { ...(agent.status as object), conditions } });
    });
    const result = await f.service.waitForAgent(f.ctx({ progress: turnReady }), { name: 'dropped', timeoutSeconds: 30 });
    expect(result).toMatchObject({ verdict: 'ready', timedOut: false, summary: 'Agent is Ready; 1/1 pods available' });
  });

  it('leaves no watch open when the client goes away mid-wait', { concurrent: false }, async ({ expect }) => {
    seedProgressing('left');
    await noWatchOpen();
    const client = new AbortController();
    const waiting = f.service.waitForAgent(f.ctx({ signal: client.signal, progress: () => client.abort() }), { name: 'left', timeoutSeconds: 60 });
    await expect(waiting).rejects.toThrow('the client went away');
    await noWatchOpen();
  });

  it('ends every wait when the server shuts down, with no watch left open', { concurrent: false }, async ({ expect }) => {
    seedProgressing('stopping');
    await noWatchOpen();
    let watching!: () => void;
    const started = new Promise<void>((resolve) => { watching = resolve; });
    const waiting = f.service.waitForAgent(f.ctx({ progress: () => watching() }), { name: 'stopping', timeoutSeconds: 60 }).catch((err: unknown) => err);
    await started;
    expect(subscribers()).toBeGreaterThan(0);
    shutdown.abort();
    // 503 on REST (with Retry-After): this replica stopped, the caller calls again.
    expect(await waiting).toMatchObject({ code: 'backend_error', status: 503, message: expect.stringContaining('shutting down') });
    expect((await waiting as Error).message).toContain('call again');
    await noWatchOpen();
  });
});

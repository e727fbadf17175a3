/**
 * The status stream (`GET /api/v1/agents/{ns}/{name}/status?watch=true`) end to end:
 * `runServe` against a sandbox API server through a kubeconfig, as the agent-manager
 * ServiceAccount with the chart's Role (RBAC on), the read cache off so the stream's are
 * the only watches. With the controllers running, a new agent is followed from
 * progressing to ready, and one whose pod crash-loops to failed; on a still sandbox, a
 * client that leaves mid-stream and a server shutdown mid-stream leave no watch open.
 * The two worlds run at once, and so do the first one's tests (each on an agent of its own).
 * Waits for the sandbox use deadlines; nothing asserts a duration.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import type { Status } from '../../src/core/types.js';
import { seedAgentCr, seedRelease, seedWorkload } from '../support/service/seed-agents.js';
import { eventually } from '../support/eventually.js';
import { deadRegistryFlag, serveConfig, startServe, type RunningServe } from '../support/start-serve.js';
import { readEvents, type ServerEvent } from '../support/transport/sse.js';

interface World {
  sandbox: Sandbox;
  serve: RunningServe;
  dir: string;
}

async function startWorld(controllers: boolean): Promise<World> {
  const sandbox = await startSandbox({ seed: true, authorization: 'rbac', controllers, reconcileDelayMs: 10 });
  const dir = mkdtempSync(join(tmpdir(), 'status-stream-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await sandbox.writeKubeconfig(kubeconfig, { token: sandbox.serviceAccountToken, name: 'agent-manager' });
  const serve = await startServe(serveConfig([
    `--kubeconfig=${kubeconfig}`, '--listen=127.0.0.1:0', '--metrics-listen=', '--read-cache=false', await deadRegistryFlag(),
  ]));
  return { sandbox, serve, dir };
}

async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.serve.close();
  await world.sandbox.close();
  rmSync(world.dir, { recursive: true, force: true });
}

const statuses = (events: ServerEvent[]) => events.filter((e) => e.event === 'status').map((e) => e.data as Status);

describe.concurrent('the status stream with the controllers running', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld(true);
  });
  afterAll(() => stopWorld(w));

  const create = async (name: string, expect: ExpectStatic) => {
    const res = await fetch(`${w.serve.base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, modelConfig: 'default-model-config', toolset: ['preset:none'] }),
    });
    expect(res.status).toBe(201);
  };

  it('follows a new agent from progressing to ready, then ends with reason ready', async ({ expect }) => {
    // The controllers wait for the stream's first event, so the stream starts with the rollout under way.
    const resume = w.sandbox.controllers!.hold({ name: 'streamed' });
    let events: ServerEvent[];
    try {
      await create('streamed', expect);
      const res = await fetch(`${w.serve.base}/api/v1/agents/kagent/streamed/status?watch=true&timeoutSeconds=60`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      events = await readEvents(res, () => resume());
    } finally {
      resume();
    }
    const seen = statuses(events);
    expect(seen[0]!.verdict).toBe('progressing');
    expect(seen.at(-1)).toMatchObject({ name: 'streamed', verdict: 'ready', summary: 'Agent is Ready; 1/1 pods available' });
    expect(seen.slice(0, -1).every((s) => s.verdict === 'progressing')).toBe(true);
    // Every status event is news: no summary twice in a row.
    expect(seen.every((s, i) => i === 0 || s.summary !== seen[i - 1]!.summary)).toBe(true);
    expect(events.at(-1)).toEqual({ event: 'end', data: { reason: 'ready' } });
  });

  it('ends with reason failed when the pod crash-loops, the last status naming it', async ({ expect }) => {
    // The pod goes into CrashLoopBackOff as soon as its ReplicaSet creates it, before the kubelet starts it.
    const unsubscribe = w.sandbox.store.subscribe((event) => {
      const meta = event.object.metadata as { name: string; labels?: Record<string, string> };
      if (event.type === 'ADDED' && event.resource === 'pods' && meta.labels?.kagent === 'crashing') {
        setImmediate(() => w.sandbox.faults.crashLoop({ namespace: 'kagent', pod: meta.name }));
      }
    });
    try {
      await create('crashing', expect);
      const res = await fetch(`${w.serve.base}/api/v1/agents/kagent/crashing/status?watch=true&timeoutSeconds=60`);
      const events = await readEvents(res);
      expect(statuses(events).at(-1)!.summary).toMatch(/^pod crashing-\S+ container kagent is CrashLoopBackOff/);
      expect(events.at(-1)).toEqual({ event: 'end', data: { reason: 'failed' } });
    } finally {
      unsubscribe();
    }
  });

  it('POST /agents with wait answers 201 once the agent is ready, the Status embedded', async ({ expect }) => {
    const res = await fetch(`${w.serve.base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'waited-create', modelConfig: 'default-model-config', toolset: ['preset:none'], wait: 60 }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ timedOut: false, status: { name: 'waited-create', verdict: 'ready' } });
  });

  it('refuses a timeout outside 1..600 seconds with a 400 that says the range', async ({ expect }) => {
    const res = await fetch(`${w.serve.base}/api/v1/agents/kagent/streamed/status?watch=true&timeoutSeconds=900`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: {
      code: 'invalid_request', message: 'invalid request: timeoutSeconds must be a whole number of seconds from 1 to 600, got 900',
    } });
  });
});

// Its tests run one after the other: they count every watch of their sandbox.
describe.concurrent('the status stream of an agent that is not getting anywhere', () => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(false);
    seedRelease(w.sandbox, { name: 'stuck', ready: true, chartVersion: '0.6.1' });
    seedAgentCr(w.sandbox, { name: 'stuck', release: { name: 'stuck', namespace: 'kagent' }, accepted: true, ready: false });
    seedWorkload(w.sandbox, { name: 'stuck', available: 0, pods: [{ name: 'stuck-pod', ready: false }] });
  });
  afterAll(() => stopWorld(w));

  // Without controllers, the API server's watches are the only subscribers of the sandbox's store.
  const watches = () => w!.sandbox.store.objects.hub.subscriberCount;
  const noWatchOpen = () => eventually(() => (watches() === 0 ? true : undefined), 5000, 'every watch closed');

  it('leaves no watch open when the client goes away mid-stream', { concurrent: false }, async ({ expect }) => {
    await noWatchOpen();
    const client = new AbortController();
    const res = await fetch(`${w!.serve.base}/api/v1/agents/kagent/stuck/status?watch=true&timeoutSeconds=600`, { signal: client.signal });
    const events = await readEvents(res, () => 'stop');
    expect(events[0]).toMatchObject({ event: 'status', data: { verdict: 'progressing' } });
    expect(watches()).toBeGreaterThan(0);
    client.abort();
    await noWatchOpen();
  });

  it('ends the stream with an end event of reason shutdown (without the id that stops a reconnect) when the server shuts down, leaving no watch open', { concurrent: false }, async ({ expect }) => {
    await noWatchOpen();
    const res = await fetch(`${w!.serve.base}/api/v1/agents/kagent/stuck/status?watch=true&timeoutSeconds=600`);
    let closing: Promise<void> | undefined;
    const events = await readEvents(res, (event) => {
      if (event.event === 'status' && !closing) closing = w!.serve.close();
    }, { ids: true });
    await closing;
    expect(events.map((e) => e.event)).toEqual(['status', 'end']);
    expect(events[1]).toEqual({ event: 'end', data: { reason: 'shutdown' } });
    await noWatchOpen();
    // Closed: the world's teardown must not stop it twice.
    w!.serve = { ...w!.serve, close: async () => undefined };
  });
});

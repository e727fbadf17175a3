/**
 * The Kubernetes client's conventions, seen from the API server (the sandbox) and from a REST
 * caller: every write names the field manager `agent-manager`, so `managedFields` says who set
 * what; an answer of 429 with `Retry-After` is sent again as client-go would, and one that goes
 * on past the retries or the waiting budget reaches the caller as a 429 with `Retry-After`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { namespacesOf, startNamespacedFixture, type NamespacedFixture } from '../support/service/shared-fixture.js';
import { serveRouter, type ServedRouter } from '../support/transport/serve-router.js';

const { home } = namespacesOf('kube-conventions');
let fixture: NamespacedFixture;
let api: ServedRouter;

beforeAll(async () => {
  fixture = await startNamespacedFixture('kube-conventions');
  api = await serveRouter(fixture.service);
});
afterEach(() => fixture.sandbox.faults.clear());
afterAll(async () => {
  await api?.close();
  await fixture?.close();
});

const spec = (name: string) => ({
  name, description: 'Keeps the lights on', modelConfig: 'default-model-config', toolset: ['preset:read-only'],
});

async function create(name: string, query = '') {
  const res = await fetch(`${api.base}/agents${query}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec(name)),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json: (await res.json()) as Record<string, any> };
}

type Managed = Array<{ manager?: string; operation?: string }>;
const managers = (resource: string, name: string) =>
  ((fixture.sandbox.store.get(resource, home, name).metadata as { managedFields?: Managed }).managedFields ?? [])
    .map((entry) => [entry.manager, entry.operation]);

/** Throttle the next `count` creates of HelmReleases in this file's namespace with a 429. */
const throttleCreates = (count: number, retryAfterSeconds: number) => fixture.sandbox.faults.failNext({
  verb: 'create', resource: 'helmreleases', namespace: home, code: 429, retryAfterSeconds, count,
});
const pendingFaults = () => fixture.sandbox.faults.snapshot().failures.reduce((sum, rule) => sum + rule.count, 0);

describe('the field manager of every write', () => {
  it('names agent-manager in the managedFields of a created HelmRelease and of an updated one', async () => {
    expect((await create('managed')).status).toBe(201);
    expect(managers('helmreleases', 'managed')).toEqual([['agent-manager', 'Update']]);
    const patched = await fetch(`${api.base}/agents/${home}/managed`, {
      method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description: 'Changed' }),
    });
    expect(patched.status).toBe(200);
    expect(managers('helmreleases', 'managed')).toEqual([['agent-manager', 'Update']]);
  });

  it('sends it with a dry run too, which the API server accepts and stores nothing for', async () => {
    const seen: string[] = [];
    const remove = fixture.sandbox.hooks.use(async (ctx, next) => {
      if (ctx.info.verb === 'create' && ctx.info.namespace === home) seen.push(new URL(ctx.req.url ?? '', 'http://x').search);
      await next();
    });
    try {
      expect((await create('dry', '?dryRun=true')).status).toBe(200);
    } finally {
      remove();
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const query of seen) expect(new URLSearchParams(query).get('fieldManager')).toBe('agent-manager');
    for (const query of seen) expect(new URLSearchParams(query).get('dryRun')).toBe('All');
  });
});

describe('an API server that throttles', () => {
  it('is asked again after the Retry-After of its 429, and the create succeeds', async () => {
    throttleCreates(1, 0);
    expect((await create('throttled-once')).status).toBe(201);
    expect(pendingFaults()).toBe(0);
    expect(managers('helmreleases', 'throttled-once')).toEqual([['agent-manager', 'Update']]);
  });

  it('answers a 429 that goes on past client-go\'s ten retries as a 429 with Retry-After', async () => {
    throttleCreates(12, 0);
    const answer = await create('throttled-always');
    expect({ status: answer.status, retryAfter: answer.retryAfter, code: answer.json.error?.code })
      .toEqual({ status: 429, retryAfter: '0', code: 'backend_error' });
    // The first attempt and ten retries: one armed failure is left.
    expect(pendingFaults()).toBe(1);
  });

  it('does not wait longer than its budget: a Retry-After past it is answered at once, with that Retry-After', async () => {
    throttleCreates(1, 30);
    const answer = await create('throttled-long');
    expect({ status: answer.status, retryAfter: answer.retryAfter }).toEqual({ status: 429, retryAfter: '30' });
    expect(answer.json.error.message).toBe(`create helmrelease ${home}/throttled-long: the Kubernetes API server is ` +
      'throttling requests (429 TooManyRequests: injected fault: create helmreleases); retry after 30s');
  });
});

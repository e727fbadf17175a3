/**
 * Versions that only callers change, end to end over REST (`runServe` against a sandbox
 * with the controllers running and a reconcile delay, as the agent-manager
 * ServiceAccount): the ETag a write answers is still accepted after Flux's status writes
 * moved the release's resourceVersion, and refused after a colleague's change of the
 * spec or the labels; If-Match on a create is evaluated (nothing exists yet: 412, nothing
 * written); an entity tag quoted in an error is cut at 200 characters; a wait cut by a
 * shutdown is a 503 with Retry-After. Waits are on the service's own wait, never sleeps; the
 * tests run at once, each on agents of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { seedAgentCr, seedRelease, seedWorkload } from '../support/service/seed-agents.js';
import { eventually } from '../support/eventually.js';
import { deadRegistryFlag, serveConfig, startServe, type RunningServe } from '../support/start-serve.js';

interface World {
  sandbox: Sandbox;
  serve: RunningServe;
  dir: string;
}

async function startWorld(controllers: boolean): Promise<World> {
  const sandbox = await startSandbox({ seed: true, authorization: 'rbac', controllers, reconcileDelayMs: 10 });
  const dir = mkdtempSync(join(tmpdir(), 'versions-'));
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

type Answer = { status: number; headers: Headers; json: Record<string, any> };

describe.concurrent('the version as the ETag, with Flux writing status', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld(true);
  });
  afterAll(() => stopWorld(w));

  const call = async (
    method: string, path: string, body?: unknown, headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await fetch(`${w.serve.base}/api/v1${path}`, {
      method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
  };
  const SPEC = { modelConfig: 'default-model-config', toolset: ['preset:none'] };

  it('accepts the ETag of a write after Flux reconciled it, and refuses it after a colleague changed the spec or the labels', async ({ expect }) => {
    expect((await call('POST', '/agents', { name: 'chained', ...SPEC, wait: 60 })).status).toBe(201);
    const written = await call('PATCH', '/agents/kagent/chained', { description: 'v2' });
    expect(written.status).toBe(200);
    const etag = written.headers.get('etag')!;
    expect(etag).toBe(`"${written.json.agent.version}"`);
    // Flux reconciles the change: its status writes move the resourceVersion, not the version.
    const waited = await call('GET', `/agents/kagent/chained/wait?generation=${written.json.generation}&timeoutSeconds=60`);
    expect(waited.json).toMatchObject({ verdict: 'ready', observedGeneration: written.json.generation });
    const read = await call('GET', '/agents/kagent/chained');
    expect(read.json.resourceVersion).not.toBe(written.json.agent.resourceVersion);
    expect(read.headers.get('etag')).toBe(etag);
    const chained = await call('PATCH', '/agents/kagent/chained', { description: 'v3' }, { 'if-match': etag });
    expect(chained.status).toBe(200);

    // A colleague edits the spec (kubectl edit): the version moves, and the ETag they did not see is refused.
    const next = chained.headers.get('etag')!;
    const live = structuredClone(w.sandbox.store.get('helmreleases', 'kagent', 'chained')) as any;
    live.spec.values.agent.description = 'theirs';
    w.sandbox.store.update('helmreleases', live);
    const refused = await call('PATCH', '/agents/kagent/chained', { description: 'mine' }, { 'if-match': next });
    expect(refused.status).toBe(412);
    expect(refused.json.error.message).toMatch(/^conflict: agent kagent\/chained changed since version \S+ was read \(now \S+\); read it again$/);

    // A label is a caller's change too, though it leaves the generation alone.
    const current = (await call('GET', '/agents/kagent/chained')).headers.get('etag')!;
    const labelled = structuredClone(w.sandbox.store.get('helmreleases', 'kagent', 'chained')) as any;
    labelled.metadata.labels = { ...labelled.metadata.labels, team: 'sre' };
    w.sandbox.store.update('helmreleases', labelled);
    expect((await call('PATCH', '/agents/kagent/chained', { description: 'mine' }, { 'if-match': current })).status).toBe(412);
  });

  it.for(['"1"', '*', '"1", "2"', 'W/"1"'])('refuses a create with If-Match %s: nothing exists yet (412), nothing written', async (header, { expect }) => {
    const res = await call('POST', '/agents', { name: 'never', ...SPEC }, { 'if-match': header });
    expect(res.status).toBe(412);
    expect(res.json.error.code).toBe('conflict');
    expect(res.json.error.message).toBe(
      `conflict: agent never (in the default namespace) does not exist yet, so If-Match ${header} cannot match (RFC 9110 §13.1.1); leave If-Match out to create it; nothing was written`);
    expect(w.sandbox.store.find('helmreleases', 'kagent', 'never')).toBeUndefined();
    expect(w.sandbox.store.find('ocirepositories', 'kagent', 'agent')).toBeDefined();
  });

  it('creates without If-Match, and answers an existing agent with If-Match * with its 409', async ({ expect }) => {
    expect((await call('POST', '/agents', { name: 'plain', ...SPEC })).status).toBe(201);
    const again = await call('POST', '/agents', { name: 'plain', ...SPEC }, { 'if-match': '*' });
    expect(again.status).toBe(409);
  });

  it('cuts an entity tag quoted in an error at 200 characters', async ({ expect }) => {
    expect((await call('POST', '/agents', { name: 'tagged', ...SPEC })).status).toBe(201);
    const huge = `"${'x'.repeat(20_000)}"`;
    for (const [method, path, body] of [['POST', '/agents', { name: 'huge', ...SPEC }], ['PATCH', '/agents/kagent/tagged', { description: 'x' }]] as const) {
      const res = await call(method, path, body, { 'if-match': huge });
      expect(res.status).toBe(412);
      expect(res.json.error.message.length).toBeLessThan(500);
      expect(res.json.error.message).toContain(`${'x'.repeat(150)}`);
    }
    const listed = await call('PATCH', '/agents/kagent/tagged', { description: 'x' }, { 'if-match': `"1", ${huge}` });
    expect(listed.status).toBe(412);
    expect(listed.json.error.message.length).toBeLessThan(500);
  });
});

describe.concurrent('a wait cut by a shutdown', () => {
  let w: World | undefined;
  beforeAll(async () => {
    w = await startWorld(false);
    seedRelease(w.sandbox, { name: 'stuck', ready: true, chartVersion: '0.6.1' });
    seedAgentCr(w.sandbox, { name: 'stuck', release: { name: 'stuck', namespace: 'kagent' }, accepted: true, ready: false });
    seedWorkload(w.sandbox, { name: 'stuck', available: 0, pods: [{ name: 'stuck-pod', ready: false }] });
  });
  afterAll(() => stopWorld(w));

  it('answers 503 with Retry-After and says to call again', async ({ expect }) => {
    const watches = () => w!.sandbox.store.objects.hub.subscriberCount;
    const answer = fetch(`${w!.serve.base}/api/v1/agents/kagent/stuck/wait?timeoutSeconds=600`);
    await eventually(() => (watches() > 0 ? true : undefined), 10_000, 'the wait watching');
    const closing = w!.serve.close();
    const res = await answer;
    await closing;
    w!.serve = { ...w!.serve, close: async () => undefined };
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('backend_error');
    expect(body.error.message).toContain('call again');
  });
});

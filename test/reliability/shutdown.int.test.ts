/**
 * SIGTERM while writes are in flight, against the built CLI as a child process
 * (`node dist/main.js serve`, built by the suite's global setup), as Kubernetes stops a
 * pod. Two runs:
 *
 * - `serve --sandbox` under a steady load of creates and updates: SIGTERM mid-load;
 *   every request that got an answer got a complete one (a 2xx with a whole JSON body,
 *   never a cut-off body), the process logs `server stopped` and exits 0 within 15 s;
 * - `serve --kubeconfig` against a sandbox of the test's own whose hook holds every
 *   HelmRelease create: five creates are provably in flight when SIGTERM arrives; once
 *   it drains (no shutdown delay here; rollout.int.test.ts covers the delay) a new
 *   connection is no longer served, the held writes are then let through, and all five
 *   are answered 201 and exist, before the process exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { deadPort, startServeChild, type ServeChild } from './support/child-serve.js';
import { HttpClient, type HttpResponse } from './support/http.js';

const GRACE_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or a rejection naming `what` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000}s`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Outcome {
  what: string;
  doneAt: number;
  res?: HttpResponse;
  error?: string;
}

let child: ServeChild | undefined;
let sandbox: Sandbox | undefined;
let dir: string | undefined;
const clients: HttpClient[] = [];
afterEach(async () => {
  child?.kill();
  child = undefined;
  for (const client of clients.splice(0)) client.close();
  await sandbox?.close();
  sandbox = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const registryFlag = async () => `--agent-chart-oci-url=oci://127.0.0.1:${await deadPort()}/charts/agent`;

describe('SIGTERM during writes', () => {
  it('serve --sandbox under load: every answer is complete, and it exits 0 within 15 s', async () => {
    child = await startServeChild(['--sandbox', await registryFlag()]);
    const client = new HttpClient(child.url);
    clients.push(client);
    const outcomes: Outcome[] = [];
    let stopping = false;
    const send = async (what: string, method: string, path: string, body?: unknown): Promise<boolean> => {
      try {
        const res = await client.send(method, path, { body });
        outcomes.push({ what, res, doneAt: performance.now() });
        return true;
      } catch (err) {
        outcomes.push({ what, error: (err as NodeJS.ErrnoException).code ?? String(err), doneAt: performance.now() });
        return false;
      }
    };
    const writer = async (w: number) => {
      for (let i = 0; !stopping; i++) {
        const name = `term-${w}-${i}`;
        const created = await send('create', 'POST', '/api/v1/agents', { name, modelConfig: 'default-model-config', toolset: ['preset:none'] });
        if (!created) break;
        if (!(await send('update', 'PATCH', `/api/v1/agents/kagent/${name}`, { description: `written by ${w}` }))) break;
      }
    };
    const writers = Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    while (outcomes.filter((o) => o.res).length < 40) await sleep(20);

    const sigtermAt = performance.now();
    child.proc.kill('SIGTERM');
    const exit = await within(child.exited, GRACE_MS, 'exit after SIGTERM');
    const exitedAfterMs = performance.now() - sigtermAt;
    stopping = true;
    await writers;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(child.logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'server stopped']));
    const answered = outcomes.filter((o) => o.res);
    for (const { what, res } of answered) {
      expect({ what, complete: res!.complete, json: res!.json !== undefined }, res!.text.slice(0, 200)).toEqual({
        what, complete: true, json: true,
      });
      expect([200, 201], `${what} → ${res!.status} ${res!.text.slice(0, 200)}`).toContain(res!.status);
    }
    // Whatever was not answered was refused or reset at the connection, never half-answered.
    for (const { what, error } of outcomes.filter((o) => o.error)) {
      expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'], `${what}: ${error}`).toContain(error);
    }
    expect(answered.length).toBeGreaterThanOrEqual(40);
    const afterSignal = answered.filter((o) => o.doneAt > sigtermAt);
    console.log(`SIGTERM under load: ${answered.length} answered (${afterSignal.length} after SIGTERM, the last ${Math.round(Math.max(...afterSignal.map((o) => o.doneAt)) - sigtermAt)} ms after it), ${outcomes.length - answered.length} refused at the connection; exited ${Math.round(exitedAfterMs)} ms after SIGTERM`);
    const closing = answered.filter((o) => o.doneAt > sigtermAt && String(o.res!.headers.connection).toLowerCase() === 'close').length;
    console.log(`  answers after SIGTERM with "Connection: close": ${closing} of ${afterSignal.length}`);
  });

  it('serve --kubeconfig: writes held in flight at SIGTERM are finished and answered 201, then it exits 0', async () => {
    sandbox = await startSandbox({ seed: true });
    dir = mkdtempSync(join(tmpdir(), 'reliability-shutdown-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await sandbox.writeKubeconfig(kubeconfig, { token: sandbox.serviceAccountToken, name: 'agent-manager' });
    const held: Array<() => void> = [];
    let gateOpen = false;
    sandbox.hooks.use(async (ctx, next) => {
      if (!gateOpen && ctx.info.verb === 'create' && ctx.info.resource === 'helmreleases') {
        await new Promise<void>((resolve) => held.push(resolve));
      }
      await next();
    });

    child = await startServeChild([`--kubeconfig=${kubeconfig}`, await registryFlag()]);
    const client = new HttpClient(child.url);
    clients.push(client);
    const names = Array.from({ length: 5 }, (_, i) => `inflight-${i}`);
    const answers = names.map((name) => client.send('POST', '/api/v1/agents', { body: { name, modelConfig: 'default-model-config', toolset: ['preset:none'] } }));
    await within((async () => {
      while (held.length < names.length) await sleep(10);
    })(), 20_000, 'all five creates reaching the API server');

    child.proc.kill('SIGTERM');
    await child.waitForLog('draining');
    // Draining, it serves nothing new: a new connection is refused (or, caught in the
    // instant the listener closes, reset) while the writes are still held.
    const late = new HttpClient(child.url);
    clients.push(late);
    const refusal = await late.send('GET', '/healthz').then((res) => `answered ${res.status}`, (err: NodeJS.ErrnoException) => err.code);
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain(refusal);

    gateOpen = true;
    for (const release of held) release();
    const results = await Promise.all(answers);
    for (const [i, res] of results.entries()) {
      expect({ name: names[i], status: res.status, complete: res.complete }, res.text.slice(0, 200)).toEqual({
        name: names[i], status: 201, complete: true,
      });
      expect(sandbox.store.find('helmreleases', 'kagent', names[i]!), `HelmRelease ${names[i]}`).toBeDefined();
    }
    const exit = await within(child.exited, GRACE_MS, 'exit after SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(child.logs.map((l) => l.msg)).toContain('server stopped');
  });
});

/**
 * A rolling restart under steady load drops nothing. Two `node dist/main.js serve`
 * processes (the old pod and its replacement) share one sandbox cluster behind a
 * balancer that routes by readiness probes (support/balancer.ts), as a Service does.
 * Eight clients create, read and list agents through the balancer without pause; the
 * new pod joins, the old one gets SIGTERM and exits. Every request gets its answer:
 * the old pod's `/readyz` turns 503 at once while it still serves for
 * `--shutdown-delay`, so the balancer has stopped sending to it before it stops
 * accepting, and what it still had in flight finishes within the drain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { startBalancer, type Backend, type Balancer } from './support/balancer.js';
import { deadPort, startServeChild, type ServeChild } from './support/child-serve.js';
import { HttpClient } from './support/http.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds, polling; the suite's test timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(20);
}

const children: ServeChild[] = [];
let sandbox: Sandbox | undefined;
let balancer: Balancer | undefined;
let client: HttpClient | undefined;
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill();
  client?.close();
  await balancer?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sandbox = balancer = client = dir = undefined;
});

interface Result {
  what: string;
  status?: number;
  error?: string;
}

describe('a rolling restart under steady load', () => {
  it('answers every request: the old pod turns unready, keeps serving through the delay, drains and exits 0', async () => {
    sandbox = await startSandbox({ seed: true });
    dir = mkdtempSync(join(tmpdir(), 'reliability-rollout-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await sandbox.writeKubeconfig(kubeconfig, { token: sandbox.serviceAccountToken, name: 'agent-manager' });
    const args = [`--kubeconfig=${kubeconfig}`, `--agent-chart-oci-url=oci://127.0.0.1:${await deadPort()}/charts/agent`, '--shutdown-delay=2s', '--shutdown-timeout=15s'];

    const old = await startServeChild(args);
    children.push(old);
    balancer = await startBalancer(50);
    const oldBackend = balancer.add(old.url);
    await until(() => oldBackend.ready);

    client = new HttpClient(balancer.url);
    const results: Result[] = [];
    let stopping = false;
    const worker = async (w: number) => {
      for (let i = 0; !stopping; i++) {
        const name = `roll-${w}-${i}`;
        for (const [what, method, path, body] of [
          ['create', 'POST', '/api/v1/agents', { name, modelConfig: 'default-model-config', toolset: ['preset:none'] }],
          ['get', 'GET', `/api/v1/agents/kagent/${name}`, undefined],
          ['list', 'GET', '/api/v1/agents', undefined],
        ] as const) {
          try {
            const res = await client!.send(method, path, { body });
            results.push({ what, status: res.status });
          } catch (err) {
            results.push({ what, error: (err as NodeJS.ErrnoException).code ?? String(err) });
          }
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    await until(() => results.length >= 60);

    // The replacement starts and becomes ready; then the old pod is stopped, as a Deployment rolls.
    const replacement = await startServeChild(args);
    children.push(replacement);
    const newBackend: Backend = balancer.add(replacement.url);
    await until(() => newBackend.ready && newBackend.answered >= 20);
    const answeredBefore = { old: oldBackend.answered, total: results.length };
    old.proc.kill('SIGTERM');
    const exit = await old.exited;
    const afterExit = newBackend.answered;
    await until(() => newBackend.answered >= afterExit + 60);
    stopping = true;
    await load;

    const failed = results.filter((r) => r.error !== undefined || ![200, 201].includes(r.status!));
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    expect(balancer.failures).toEqual([]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(old.logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'draining', 'server stopped']));
    // The old pod was seen unready (503 from /readyz) before it was gone, and the load went on through the new one.
    expect(oldBackend.transitions).toEqual(['ready', 'unready', 'gone']);
    expect(newBackend.answered).toBeGreaterThanOrEqual(afterExit + 60);
    console.log(`rollout: ${results.length} requests, 0 failed; the old pod answered ${oldBackend.answered} `
      + `(${oldBackend.answered - answeredBefore.old} after SIGTERM), the new one ${newBackend.answered}`);
  });
});

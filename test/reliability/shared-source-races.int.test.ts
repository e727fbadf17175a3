/**
 * Races on the namespace's shared OCIRepository, between replicas. Two AgentService
 * instances (two replicas: separate clients, no shared memory) talk to one sandbox whose
 * simulated Flux controllers run (so releases and sources carry Flux's finalizer and
 * linger while being deleted; the controllers act 150 ms after a change), with 40 ms of latency on every API request.
 * Each race is swept over the offset between its two requests, so every interleaving of their API
 * calls is met (the `ci` budget runs a seeded sample of each sweep, always its first and last
 * offset). Claims, once both requests have answered:
 *
 * - a create racing the delete of the namespace's last agent never leaves a live
 *   HelmRelease without a live source (whether the create takes a new name or the same);
 * - two overlapping deletes of the last two agents take the source with them;
 * - a delete racing a create of the same name never answers the "bare CR" 409 (its two
 *   concurrent reads landing on either side of the create).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { ServiceAccountProvider } from '../../src/kube/providers.js';
import { silentLogger } from '../../src/log/logger.js';
import { AgentService } from '../../src/service/agent-service.js';
import { CHART_URL, fixtureSettings } from '../support/service/fixture.js';
import { EmbeddedChartSource } from '../support/service/embedded-chart.js';
import type { RequestContext } from '../../src/identity/caller.js';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import { eventually } from '../support/eventually.js';
import { budget, rerun, sample } from './support/budget.js';

const NS = 'kagent';
const SOURCE = 'agent';
const LATENCY_MS = 40;
/** Offsets of the second request after the first (ms): from together to well after the first has answered. */
const OFFSETS = [0, 20, 40, 60, 80, 100, 120, 160, 200, 260];
/** Each sweep's offsets in this budget: all, or the first, the last and a seeded sample between. */
const B = budget();
const sweep = (offsets: number[], salt: string) => sample(offsets, B.raceOffsets, B.seed, salt);
const steps = (from: number, to: number, by: number) =>
  Array.from({ length: (to - from) / by + 1 }, (_, i) => from + i * by);

let sandbox: Sandbox;
let replicas: AgentService[];
const providers: ServiceAccountProvider[] = [];
const log = silentLogger();
let n = 0;
const ctx = (): RequestContext => ({ requestId: `race-${++n}`, log });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const spec = (name: string) => ({ name, namespace: NS, modelConfig: 'default-model-config', toolset: ['preset:none'] });

type Obj = { metadata: { name: string; deletionTimestamp?: string }; spec?: { chartRef?: { name?: string } } };
const objects = (resource: string) => sandbox.store.list(resource, { namespace: NS }).items as unknown as Obj[];
const live = (o: Obj | undefined) => o !== undefined && !o.metadata.deletionTimestamp;

/** The invariant: every live release of the namespace renders from a live source. */
function orphans(): string[] {
  const source = sandbox.store.find('ocirepositories', NS, SOURCE) as unknown as Obj | undefined;
  if (live(source)) return [];
  return objects('helmreleases').filter(live).map((r) => r.metadata.name);
}

/** Back to an empty namespace: every release and Agent gone (finalizers done), without latency. */
async function reset(): Promise<void> {
  sandbox.faults.setLatency(0);
  for (const r of objects('helmreleases').filter(live)) {
    await replicas[0]!.deleteAgent(ctx(), { namespace: NS, name: r.metadata.name, force: true }).catch(() => undefined);
  }
  await eventually(() => (objects('helmreleases').length === 0 ? true : undefined), 10_000, 'the releases to go');
  for (const a of objects('agents')) sandbox.store.delete('agents', NS, a.metadata.name, { fieldManager: 'test' });
  sandbox.faults.setLatency(LATENCY_MS);
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: true, controllers: true, reconcileDelayMs: 150 });
  replicas = [0, 1].map(() => {
    const provider = new ServiceAccountProvider(loadBaseKubeConfig({
      kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }),
    }));
    providers.push(provider);
    return new AgentService({ kube: provider, chart: new EmbeddedChartSource(CHART_URL), log }, fixtureSettings());
  });
});
afterAll(async () => {
  for (const p of providers) p.close?.();
  await sandbox?.close();
});

describe('a create racing the delete of the namespace\'s last agent, on two replicas', () => {
  for (const reuse of [false, true]) {
    it(`never leaves a release without its source (${reuse ? 'the create reuses the name' : 'a new name'})`, async () => {
      const seen: string[] = [];
      for (const offset of sweep(OFFSETS, `create ${reuse}`)) {
        await reset();
        await replicas[0]!.createAgent(ctx(), spec('x'));
        const deleting = replicas[0]!.deleteAgent(ctx(), { namespace: NS, name: 'x' });
        await sleep(offset);
        const creating = replicas[1]!.createAgent(ctx(), spec(reuse ? 'x' : 'y'));
        const [deleted, created] = await Promise.allSettled([deleting, creating]);
        expect(deleted.status, `offset ${offset} [${rerun(B)}]: ${String((deleted as PromiseRejectedResult).reason)}`).toBe('fulfilled');
        // Reusing the name of a release still being deleted is refused with a 409; nothing else may fail.
        if (created.status === 'rejected') expect({ offset, code: (created.reason as { code?: string }).code }).toEqual({ offset, code: reuse ? 'conflict' : 'none' });
        seen.push(created.status);
        expect({ offset, orphans: orphans() }).toEqual({ offset, orphans: [] });
      }
      expect(seen).toContain('fulfilled');
    });
  }
});

/** A finalizer of the test's own that holds a release while it is being deleted, as a slow Helm uninstall does. */
const HOLD = 'test.example.com/hold';
function setHold(name: string, hold: boolean): void {
  const release = sandbox.store.get('helmreleases', NS, name) as unknown as { metadata: { finalizers?: string[] } };
  const finalizers = (release.metadata.finalizers ?? []).filter((f) => f !== HOLD);
  const next = { ...release, metadata: { ...release.metadata, finalizers: hold ? [...finalizers, HOLD] : finalizers } };
  sandbox.store.update('helmreleases', next as never, { fieldManager: 'test' });
}

describe('two overlapping deletes of the last two agents, on two replicas', () => {
  it('take the shared source with them, whatever the offset', async () => {
    for (const offset of sweep(steps(0, 200, 20), 'deletes')) {
      await reset();
      await replicas[0]!.createAgent(ctx(), spec('c1'));
      await replicas[0]!.createAgent(ctx(), spec('c2'));
      setHold('c1', true);
      setHold('c2', true);
      const first = replicas[0]!.deleteAgent(ctx(), { namespace: NS, name: 'c1' });
      await sleep(offset);
      const second = replicas[1]!.deleteAgent(ctx(), { namespace: NS, name: 'c2' });
      const results = await Promise.all([first, second]);
      setHold('c1', false);
      setHold('c2', false);
      expect({ offset, deleted: results.some((r) => r.ociRepositoryDeleted) }, JSON.stringify(results)).toEqual({
        offset, deleted: true,
      });
      const source = sandbox.store.find('ocirepositories', NS, SOURCE) as unknown as Obj | undefined;
      expect({ offset, liveSource: live(source) }).toEqual({ offset, liveSource: false });
    }
  });
});

describe('a delete racing a create of the same name, on two replicas', () => {
  it('never answers the bare-CR 409 while the Agent it reads was rendered from a release', async () => {
    // The delete's Agent read is made slow, so its release read lands before the create's
    // write and its Agent read after helm-controller rendered the Agent from that release.
    let slowNextAgentRead = false;
    const removeHook = sandbox.hooks.use(async (hook, next) => {
      if (slowNextAgentRead && hook.info.verb === 'get' && hook.info.resource === 'agents') {
        slowNextAgentRead = false;
        await sleep(400);
      }
      return next();
    });
    try {
      for (const offset of sweep(steps(0, 300, 30), 'bare CR')) {
        await reset();
        const creating = replicas[0]!.createAgent(ctx(), spec('z'));
        await sleep(offset);
        slowNextAgentRead = true;
        const answer = await replicas[1]!.deleteAgent(ctx(), { namespace: NS, name: 'z' }).then(
          (r) => `deleted: release ${String(r.helmReleaseDeleted)}`, (err: { code?: string; message?: string }) => `${err.code}: ${err.message}`);
        await creating.catch(() => undefined);
        expect(answer, `offset ${offset} [${rerun(B)}]`).not.toContain('bare CR');
      }
    } finally {
      removeHook();
    }
  });
});

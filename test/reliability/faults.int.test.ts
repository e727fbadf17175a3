/**
 * A fault at every API request of create, update and delete. Each operation is first run
 * cleanly while a hook records its requests (verb, resource, namespace, name, and which
 * occurrence of that request it is); then, for every recorded step and every fault, the
 * state is reset, exactly that request is made to fail, the operation is run again over
 * REST, and the answer and the objects left behind are checked.
 *
 * Faults: HTTP 500; a dropped connection; a timeout, the request held past the kube
 * client's deadline (750 ms here, 30 s in `serve`) and then either never answered or
 * served late, so a write lands after the caller was told it failed; and a 409 (on a
 * create the realistic one: a concurrent writer created the object first).
 *
 * Claims: a fault before the first write is answered 502 `backend_error` naming the call
 * (504 for a timeout, 409 `conflict` for a 409), and nothing is written; a fault after the last write still
 * answers 2xx; whatever happens, once every held request has settled, no HelmRelease is
 * left without its OCIRepository, a failed create leaves no source of its own behind
 * (unless the source's own write landed late), an update is applied whole or not at all
 * (a lost resourceVersion race is retried), and a delete leaves the release either there
 * untouched or gone with its source deleted or kept for a stated reason. The `ci` budget puts
 * the timeouts at a seeded sample of each operation's requests (always its first and last).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookContext } from '@agent-manager/kube-sandbox';
import { statusForCode } from '@agent-manager/kube-sandbox';
import { ManagedNamespaces } from '../../src/service/namespaces.js';
import { fixtureSettings } from '../support/service/fixture.js';
import { CHART_URL, seedModelConfig, seedRelease } from '../support/service/seed-agents.js';
import type { HttpResponse } from './support/http.js';
import { budget, rerun, sample } from './support/budget.js';
import { deadlineProvider } from './support/deadline-provider.js';
import { startServedApp, type ServedApp } from './support/service-app.js';

const NAME = 'faulty';
/**
 * Every run gets a namespace of its own: requests of an earlier run that were still on
 * their way when its answer came (the other reads of a failed Promise.all) can then
 * never meet the fault armed for the next run.
 */
const NAMESPACES = Array.from({ length: 400 }, (_, i) => `fault-${i}`);
let nextNamespace = 0;
function freshNamespace(): string {
  const ns = NAMESPACES[nextNamespace++];
  if (!ns) throw new Error('out of namespaces: raise NAMESPACES');
  return ns;
}
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);

interface Step {
  verb: string;
  resource: string;
  namespace: string;
  name: string;
  /** 1 for the first request with this verb, resource, namespace and name, 2 for the second… */
  occurrence: number;
}
type Phase = 'before the first write' | 'a write' | 'between writes' | 'after the last write';
type Fault = 'HTTP 500' | 'dropped connection' | 'timeout, never answered' | 'timeout, applied late' | '409';
const FAULTS: Fault[] = ['HTTP 500', 'dropped connection', 'timeout, never answered', 'timeout, applied late', '409'];
/** The kube client's request deadline in this suite, and how long a timed-out request is held. */
const DEADLINE_MS = 750;
const HOLD_MS = 1_100;
/** A late write only differs from an unanswered one for writes: reads get just the first. */
const appliesTo = (fault: Fault, step: Step) => fault !== 'timeout, applied late' || WRITE_VERBS.has(step.verb);
/** The budget: the timeouts (a second or more each) at every request, or at a seeded sample of them. */
const B = budget();
const isTimeout = (fault: Fault) => fault.startsWith('timeout');
/** At least the quick faults at every request and one timeout at each sampled one: the sweep did run. */
const minimumCases = (steps: number, timed: number) => steps * FAULTS.filter((f) => !isTimeout(f)).length + timed;

let served: ServedApp;
beforeAll(async () => {
  served = await startServedApp({
    settings: fixtureSettings({ namespaces: new ManagedNamespaces('kagent', NAMESPACES) }),
    provider: deadlineProvider(DEADLINE_MS),
  });
  for (const ns of NAMESPACES) {
    served.fixture.sandbox.store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    seedModelConfig(served.fixture.sandbox, ns, 'default-model-config');
  }
});
afterAll(async () => {
  await served?.close();
});

const store = () => served.fixture.sandbox.store;
const find = (resource: string, ns: string, name: string) =>
  store().find(resource, ns, name) as { metadata: { resourceVersion: string }; spec: Record<string, any> } | undefined;
const releases = (ns: string) => store().list('helmreleases', { namespace: ns }).items as Array<{ metadata: { name: string }; spec: { chartRef?: { name?: string } } }>;

/** Steps are recorded in one namespace and replayed in another: the namespace is not part of the key. */
const stepKey = (s: Omit<Step, 'occurrence' | 'namespace'>) => `${s.verb} ${s.resource} ${s.name}`;
const describeStep = (s: Step) => `${s.verb} ${s.resource} ${s.name || '(collection)'}${s.occurrence > 1 ? ` (#${s.occurrence})` : ''}`;
const stepOf = (info: HookContext['info']) => ({
  verb: info.verb, resource: info.subresource ? `${info.resource}/${info.subresource}` : info.resource, namespace: info.namespace, name: info.name,
});

/** The requests `run` makes in `ns`, in order. */
async function recordSteps(ns: string, run: () => Promise<HttpResponse>): Promise<Step[]> {
  const steps: Step[] = [];
  const seen = new Map<string, number>();
  const remove = served.fixture.sandbox.hooks.use(async (ctx, next) => {
    const step = stepOf(ctx.info);
    if (step.namespace === ns) {
      const occurrence = (seen.get(stepKey(step)) ?? 0) + 1;
      seen.set(stepKey(step), occurrence);
      steps.push({ ...step, occurrence });
    }
    await next();
  });
  try {
    const res = await run();
    expect(res.status, `the clean run: ${res.text}`).toBeLessThan(300);
  } finally {
    remove();
  }
  return steps;
}

function phaseOf(steps: Step[], index: number): Phase {
  const writes = steps.flatMap((s, i) => (WRITE_VERBS.has(s.verb) ? [i] : []));
  if (writes.length === 0 || index < writes[0]!) return 'before the first write';
  if (index > writes[writes.length - 1]!) return 'after the last write';
  return writes.includes(index) ? 'a write' : 'between writes';
}

/** What a concurrent writer creates first, for a 409 on a create. */
function createConcurrently(ns: string, resource: string): void {
  if (resource === 'ocirepositories') {
    store().create('ocirepositories', {
      apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
      metadata: { name: 'agent', namespace: ns }, spec: { interval: '30m', url: CHART_URL, ref: { semver: '0.x' } },
    });
  } else if (resource === 'helmreleases') {
    if (!find('ocirepositories', ns, 'agent')) createConcurrently(ns, 'ocirepositories');
    seedRelease(served.fixture.sandbox, { namespace: ns, name: NAME });
  } else {
    throw new Error(`no concurrent writer for ${resource}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(ctx: HookContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** What the API server would have done with the write it answered too late. */
function applyLate(info: HookContext['info'], body: string): void {
  const opts = { fieldManager: 'agent-manager' };
  if (info.verb === 'create') store().create(info.resource, JSON.parse(body), opts);
  else if (info.verb === 'update') store().update(info.resource, JSON.parse(body), opts);
  else if (info.verb === 'delete') store().delete(info.resource, info.namespace, info.name);
  else throw new Error(`no late write for ${info.verb}`);
}

interface Armed {
  disarm(): void;
  /** Resolves once the faulted request is over on the API server's side (a late write has landed). */
  settled: Promise<void>;
}

/** Arm `fault` for exactly the request `step` in `ns`. */
function arm(ns: string, step: Step, fault: Fault): Armed {
  const { sandbox } = served.fixture;
  const simple = fault === 'HTTP 500' || fault === 'dropped connection' || (fault === '409' && step.verb !== 'create');
  if (simple && step.occurrence === 1) {
    // The sandbox's own fault injector takes the first request that matches.
    sandbox.faults.failNext({
      verb: step.verb, resource: step.resource, namespace: ns, name: step.name || undefined,
      ...(fault === 'dropped connection' ? { drop: true } : { code: fault === '409' ? 409 : 500 }),
    });
    return { disarm: () => sandbox.faults.clear(), settled: Promise.resolve() };
  }
  let seen = 0;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const disarm = sandbox.hooks.use(async (ctx: HookContext, next) => {
    const here = stepOf(ctx.info);
    if (here.namespace !== ns || stepKey(here) !== stepKey(step) || ++seen !== step.occurrence) return next();
    try {
      if (fault === 'timeout, never answered') {
        await sleep(HOLD_MS);
        return ctx.drop();
      }
      if (fault === 'timeout, applied late') {
        // The API server takes the write, the client gives up waiting, and the write lands
        // after all (a slow etcd): applied to the store once the deadline has passed.
        const body = await readBody(ctx);
        await sleep(HOLD_MS);
        applyLate(ctx.info, body);
        return ctx.drop();
      }
      if (fault === 'dropped connection') return ctx.drop();
      if (fault === '409' && step.verb === 'create') {
        createConcurrently(ns, step.resource);
        return ctx.fail(statusForCode(409, `${step.resource} already exists`));
      }
      return ctx.fail(statusForCode(fault === '409' ? 409 : 500, `injected fault: ${describeStep(step)}`));
    } finally {
      settle();
    }
  });
  // A fault whose request never came (it cannot happen here: every step was recorded) settles on disarm.
  return { disarm: () => { disarm(); settle(); }, settled };
}

/**
 * The answer is a success, or a clear backend_error or conflict. The revision history
 * (ControllerRevisions: listed before the write, one created and old ones deleted after it)
 * never decides a write: a fault there leaves the write applied, and the answer says so in
 * a note.
 */
function checkAnswer(res: HttpResponse, phase: Phase, fault: Fault, success: number, step: Step): void {
  expect(res.complete, 'a complete answer').toBe(true);
  if (step.resource === 'controllerrevisions') {
    expect(res.status, 'a fault in the revision history does not fail the write').toBe(success);
    expect((res.json?.notes ?? []).join('\n')).toMatch(/revision/);
    return;
  }
  if (res.status === success) {
    expect(phase, 'a fault before the first write cannot end in success').not.toBe('before the first write');
    return;
  }
  expect(phase, 'a fault after the last write must not fail the operation').not.toBe('after the last write');
  const error = res.json?.error;
  expect(typeof error?.message).toBe('string');
  expect(error.message).not.toMatch(/\n\s+at /);
  if (fault === '409') {
    expect({ status: res.status, code: error.code }).toEqual({ status: 409, code: 'conflict' });
  } else {
    const status = isTimeout(fault) ? 504 : 502;
    expect({ status: res.status, code: error.code }).toEqual({ status, code: 'backend_error' });
    expect(error.message).toMatch(/^(get|list|create|update|delete) \S+/);
    if (fault.startsWith('timeout')) expect(error.message).toContain(`did not answer within ${DEADLINE_MS / 1000}s`);
  }
}

/** No HelmRelease in the namespace renders from a source that is not there. */
function checkNoReleaseWithoutSource(ns: string): void {
  for (const release of releases(ns)) {
    expect(find('ocirepositories', ns, release.spec.chartRef?.name ?? ''), `the source of HelmRelease ${release.metadata.name}`).toBeDefined();
  }
}

const create = (ns: string) => served.client.send('POST', '/api/v1/agents', {
  body: { name: NAME, namespace: ns, modelConfig: 'default-model-config', toolset: ['preset:none'], description: 'before' },
});
const CHANGE = { description: 'after the fault', toolset: ['preset:read-only'], labels: { fault: 'survived' } };
const update = (ns: string) => served.client.send('PATCH', `/api/v1/agents/${ns}/${NAME}`, { body: CHANGE });
const remove = (ns: string) => served.client.send('DELETE', `/api/v1/agents/${ns}/${NAME}`);

/** A namespace with the agent created in it. */
async function withAgent(): Promise<string> {
  const ns = freshNamespace();
  const res = await create(ns);
  expect(res.status, res.text).toBe(201);
  return ns;
}

interface Run {
  ns: string;
  res: HttpResponse;
  step: Step;
  phase: Phase;
  fault: Fault;
}

/**
 * Defects this suite found, skipped in the sweep and pinned with `it.fails` below (so the
 * suite turns red once one is fixed, asking for its line here to go). None are open: the
 * last one (a release create that timed out and landed late lost the source its call had
 * created) is fixed and kept as a regression test below.
 */
const KNOWN_DEFECTS: Array<{ fault: Fault; step: string }> = [];
const isKnownDefect = (fault: Fault, step: Step) =>
  KNOWN_DEFECTS.some((d) => d.fault === fault && d.step === describeStep(step));

/** Run `op` with `fault` at `step` in a namespace from `prepare`; the answer once the API server is done with it. */
async function runWithFault(
  prepare: () => Promise<string> | string, op: (ns: string) => Promise<HttpResponse>, step: Step, fault: Fault,
) {
  const ns = await prepare();
  const armed = arm(ns, step, fault);
  try {
    const res = await op(ns);
    // The state is judged once the API server is done with the faulted request.
    await armed.settled;
    return { ns, res };
  } finally {
    armed.disarm();
  }
}

/** Run `op` once per (step, fault), each in a namespace from `prepare`, and `check` the outcome. */
async function everyFault(
  prepare: () => Promise<string> | string,
  op: (ns: string) => Promise<HttpResponse>,
  check: (run: Run) => void,
): Promise<{ cases: number; steps: string[]; timed: number }> {
  const recordIn = await prepare();
  const steps = await recordSteps(recordIn, () => op(recordIn));
  const timed = new Set(sample(steps, B.timeoutSteps, B.seed, steps.map(describeStep).join()));
  let cases = 0;
  for (const [index, step] of steps.entries()) {
    const runs = (f: Fault) => appliesTo(f, step) && !isKnownDefect(f, step) && (!isTimeout(f) || timed.has(step));
    const faults = FAULTS.filter(runs);
    for (const fault of faults) {
      const { ns, res } = await runWithFault(prepare, op, step, fault);
      const phase = phaseOf(steps, index);
      try {
        check({ ns, res, step, phase, fault });
        checkNoReleaseWithoutSource(ns);
      } catch (err) {
        const context = `${fault} at ${describeStep(step)} (${phase}) → ${res.status} ${res.text.slice(0, 300)} [${rerun(B)}]`;
        throw new Error(`${context}\n${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      cases++;
    }
  }
  console.log(`${cases} faulted runs over ${steps.length} API requests (timeouts at ${timed.size}; ${rerun(B)}): `
    + steps.map(describeStep).join(', '));
  return { cases, steps: steps.map(describeStep), timed: timed.size };
}

describe('faults at every API request', () => {
  it('create: 502 (504 on a timeout) or 409 before the write, 201 after it, never a release without its source, and no orphaned source after a refusal', async () => {
    const { cases, steps, timed } = await everyFault(freshNamespace, create, ({ ns, res, step, phase, fault }) => {
      const concurrent = fault === '409' && step.verb === 'create';
      if (concurrent && step.resource === 'ocirepositories') {
        // Someone else created the shared source first: it is reused.
        expect(res.status).toBe(201);
        expect(res.json.created).toEqual({ ociRepository: false, helmRelease: true });
      }
      checkAnswer(res, phase, fault, 201, step);
      if (res.status === 201) {
        expect(find('helmreleases', ns, NAME)).toBeDefined();
        return;
      }
      if (concurrent) return;
      const late = fault === 'timeout, applied late';
      // A release that landed after the caller was told it failed: only the invariant (no
      // release without its source, checked after every run) can hold for it.
      if (late && step.resource === 'helmreleases') return;
      expect(find('helmreleases', ns, NAME), 'no release after a failed create').toBeUndefined();
      // When the release write itself failed without a refusal (5xx, no answer), its outcome
      // is unknown, so create keeps the source it made rather than risk a release without it.
      const unknownOutcome = step.verb === 'create' && step.resource === 'helmreleases' && fault !== '409';
      if (!(late && step.resource === 'ocirepositories') && !unknownOutcome) {
        expect(find('ocirepositories', ns, 'agent'), 'no source left behind by a failed create').toBeUndefined();
      }
    });
    expect(steps).toEqual(expect.arrayContaining(['create ocirepositories (collection)', 'create helmreleases (collection)']));
    expect(cases).toBeGreaterThanOrEqual(minimumCases(steps.length, timed));
  });

  it('update: 502 (504 on a timeout) or 409 and nothing written, or 200 with the whole change (a lost race is retried)', async () => {
    const before = new Map<string, { resourceVersion: string; values: unknown }>();
    const prepare = async () => {
      const ns = await withAgent();
      const release = find('helmreleases', ns, NAME)!;
      before.set(ns, {
        resourceVersion: release.metadata.resourceVersion, values: structuredClone(release.spec.values),
      });
      return ns;
    };
    const { cases, steps, timed } = await everyFault(prepare, update, ({ ns, res, step, phase, fault }) => {
      if (fault === '409' && step.verb === 'update') expect(res.status, 'a 409 on the write is retried').toBe(200);
      checkAnswer(res, phase, fault, 200, step);
      const release = find('helmreleases', ns, NAME)!;
      const whole = { agent: { description: 'after the fault' }, toolset: ['preset:read-only'], labels: { fault: 'survived' } };
      if (res.status === 200) {
        expect(release.spec.values).toEqual(res.json.after);
        expect(release.spec.values).toMatchObject(whole);
      } else if (fault === 'timeout, applied late' && step.verb === 'update') {
        // The write landed after the 504: whole, never in part.
        expect(release.spec.values).toMatchObject(whole);
      } else {
        expect(release.metadata.resourceVersion, 'nothing written').toBe(before.get(ns)!.resourceVersion);
        expect(release.spec.values).toEqual(before.get(ns)!.values);
      }
    });
    expect(steps).toContain('update helmreleases faulty');
    expect(cases).toBeGreaterThanOrEqual(minimumCases(steps.length, timed));
  });

  it('delete: 502 (504 on a timeout) or 409 with everything in place, or 200 with the release gone and its source deleted or kept for a reason', async () => {
    const versions = new Map<string, string>();
    const prepare = async () => {
      const ns = await withAgent();
      versions.set(ns, find('helmreleases', ns, NAME)!.metadata.resourceVersion);
      return ns;
    };
    const { cases, steps, timed } = await everyFault(prepare, remove, ({ ns, res, step, phase, fault }) => {
      checkAnswer(res, phase, fault, 200, step);
      if (fault === 'timeout, applied late' && step.verb === 'delete' && step.resource === 'helmreleases') {
        // The release went after the 504; the source stays (nothing cleaned up): consistent.
        expect(find('helmreleases', ns, NAME)).toBeUndefined();
        expect(find('ocirepositories', ns, 'agent')).toBeDefined();
      } else if (res.status === 200) {
        expect(find('helmreleases', ns, NAME)).toBeUndefined();
        if (res.json.ociRepositoryDeleted) expect(find('ocirepositories', ns, 'agent')).toBeUndefined();
        else expect(res.json.ociRepositoryKept).toMatch(/\S/);
      } else {
        expect(find('helmreleases', ns, NAME)?.metadata.resourceVersion, 'the release untouched').toBe(versions.get(ns));
        expect(find('ocirepositories', ns, 'agent'), 'the source untouched').toBeDefined();
      }
    });
    expect(steps).toEqual(expect.arrayContaining(['delete helmreleases faulty', 'delete ocirepositories agent']));
    expect(cases).toBeGreaterThanOrEqual(minimumCases(steps.length, timed));
  });

  it('create: a HelmRelease create that times out and lands late keeps its source', async () => {
    const step: Step = { verb: 'create', resource: 'helmreleases', namespace: '', name: '', occurrence: 1 };
    const { ns, res } = await runWithFault(freshNamespace, create, step, 'timeout, applied late');
    expect(res.status).toBe(504);
    expect(find('helmreleases', ns, NAME), 'the release landed').toBeDefined();
    checkNoReleaseWithoutSource(ns);
  });
});

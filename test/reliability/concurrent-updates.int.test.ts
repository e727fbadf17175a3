/**
 * Fifty concurrent updates of one agent through REST, each changing one field (the ten
 * fields an update can change, five writers each): no update is lost and no conflict
 * reaches a caller. The proof is a chain: every write answered 200 with the values it
 * read (`before`) and wrote (`after`); exactly one write may start from each state, so
 * following before → after from the initial values visits every write once (two
 * writes built on the same state would mean one overwrote the other) and ends at what
 * the HelmRelease holds. Writers of the same field then agree with that order: the
 * field holds the value of its last writer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyUpdate } from '../../src/core/writes/update-merge.js';
import type { AgentUpdate } from '../../src/core/types.js';
import { startServedApp, type ServedApp } from './support/service-app.js';

const NAME = 'busy';
const WRITERS = 50;

type Values = Record<string, unknown>;
type Change = Omit<AgentUpdate, 'name' | 'namespace'>;

/** Writer i's change: field i mod 10, a value only that writer uses (runtime and modelConfig alternate between the two
 * valid ones). */
const FIELDS: Array<[string, (i: number) => Change]> = [
  ['displayName', (i) => ({ displayName: `Writer ${i}` })],
  ['description', (i) => ({ description: `description written by writer ${i}` })],
  ['systemMessage', (i) => ({ systemMessage: `You are agent number ${i}.` })],
  ['iconUrl', (i) => ({ iconUrl: `https://icons.example.com/${i}.png` })],
  ['runtime', (i) => ({ runtime: Math.floor(i / 10) % 2 === 0 ? 'go' : 'python' })],
  ['modelConfig', (i) => ({ modelConfig: Math.floor(i / 10) % 2 === 0 ? 'qwen3-8-27b' : 'default-model-config' })],
  ['toolset', (i) => ({ toolset: [`server:writer-${i}`, 'preset:read-only'] })],
  ['labels', (i) => ({ labels: { writer: `w${i}` } })],
  ['annotations', (i) => ({ annotations: { 'example.com/writer': `writer ${i}` } })],
  ['skills', (i) => ({ skills: { refs: [`ghcr.io/acme/skills/writer-${i}:1.0.0`] } })],
];

const changeOf = (i: number): Change => FIELDS[i % FIELDS.length]![1](i);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Values)[k])]));
  }
  return value;
}

let served: ServedApp;
beforeAll(async () => {
  served = await startServedApp();
});
afterAll(async () => {
  await served?.close();
});

describe('fifty concurrent updates of one agent', () => {
  it('all answer 200, none is lost, and every field holds its last writer\'s value', async () => {
    const { client, fixture } = served;
    const created = await client.send('POST', '/api/v1/agents', {
      body: { name: NAME, modelConfig: 'default-model-config', toolset: ['preset:none'], displayName: 'Before' },
    });
    expect(created.status, created.text).toBe(201);
    const initial = (fixture.sandbox.store.get('helmreleases', 'kagent', NAME).spec as { values: Values }).values;

    const responses = await Promise.all(Array.from({ length: WRITERS }, (_, i) =>
      client.send('PATCH', `/api/v1/agents/kagent/${NAME}`, { body: changeOf(i) })));
    for (const [i, res] of responses.entries()) {
      expect({ writer: i, status: res.status, complete: res.complete }, res.text).toEqual({
        writer: i, status: 200, complete: true,
      });
    }

    const results = responses.map((res, i) => ({
      i, before: res.json.before as Values, after: res.json.after as Values, changed: res.json.changed as string[],
    }));
    // Each answer is its own change applied to the state it read.
    for (const r of results) {
      expect(same(r.after, applyUpdate(r.before, { name: NAME, ...changeOf(r.i) })), `writer ${r.i}`).toBe(true);
    }

    // Follow the chain of writes from the initial values.
    const writes = results.filter((r) => r.changed.length > 0);
    const order: number[] = [];
    const states = [initial];
    let current = initial;
    const pending = new Set(writes.map((r) => r.i));
    while (pending.size > 0) {
      const next = writes.filter((r) => pending.has(r.i) && same(r.before, current));
      expect(next.map((r) => r.i), `exactly one write may start from state ${order.length}`).toHaveLength(1);
      const [write] = next;
      pending.delete(write!.i);
      order.push(write!.i);
      current = write!.after;
      states.push(current);
    }
    const stored = (fixture.sandbox.store.get('helmreleases', 'kagent', NAME).spec as { values: Values }).values;
    expect(same(stored, current)).toBe(true);

    // A writer that changed nothing found its value already there, in a state of the chain.
    for (const r of results.filter((x) => x.changed.length === 0)) {
      expect(states.some((s) => same(s, r.before)), `no-op writer ${r.i} read a state of the chain`).toBe(true);
    }

    // Each field holds the value of its last writer in the chain.
    for (const [f, [field]] of FIELDS.entries()) {
      const lastWriter = [...order].reverse().find((i) => i % FIELDS.length === f);
      if (lastWriter === undefined) continue;
      const expected = applyUpdate(stored, { name: NAME, ...changeOf(lastWriter) });
      expect(same(stored, expected), `${field} holds writer ${lastWriter}'s value`).toBe(true);
    }
    // Only the two fields with two possible values can find their value already set.
    const noOps = results.filter((r) => r.changed.length === 0).map((r) => FIELDS[r.i % FIELDS.length]![0]);
    expect(noOps.filter((field) => field !== 'runtime' && field !== 'modelConfig')).toEqual([]);
  });
});

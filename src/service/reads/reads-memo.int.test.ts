import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../core/frozen.js';
import type { Gvr, KubeObject, KubePort } from '../ports.js';
import { summaryOf } from '../../core/status/agent-summary.js';
import { getAgent, listAgents, summaryRow, type ReadContext } from './agent-reads.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../resources.js';
import { CHART_URL } from '../../../test/support/service/fixture.js';
import { FakeKube } from '../../../test/support/service/fake-kube.js';
import { seedAgentCr, seedRelease } from '../../../test/support/service/seed-agents.js';

const types = resourceTypes(DEFAULT_API_VERSIONS);

/** The fake's answers, frozen once per stored version as the read cache freezes its objects. */
function frozenReads(kube: FakeKube): KubePort {
  const held = new Map<string, KubeObject>();
  const hold = (o: KubeObject): KubeObject => {
    const id = `${o.kind}/${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`;
    if (!held.has(id)) held.set(id, deepFreeze(o));
    return held.get(id)!;
  };
  return {
    create: (gvr, object, options) => kube.create(gvr, object, options),
    replace: (gvr, object, options) => kube.replace(gvr, object, options),
    remove: (gvr, ns, name, options) => kube.remove(gvr, ns, name, options),
    get: async (gvr: Gvr, ns: string, name: string) => {
      const found = await kube.get(gvr, ns, name);
      return found && hold(found);
    },
    list: async (gvr: Gvr, ns: string) => (await kube.list(gvr, ns)).map(hold),
  };
}

function fixture() {
  const kube = new FakeKube();
  seedRelease(kube, { name: 'a', ready: true });
  seedAgentCr(kube, { name: 'a', release: { name: 'a', namespace: 'kagent' }, ready: true, accepted: true });
  seedRelease(kube, { name: 'b', ready: true });
  seedAgentCr(kube, { name: 'b', release: { name: 'b', namespace: 'kagent' }, ready: true, accepted: true });
  seedRelease(kube, { name: 'pending' });
  return kube;
}

describe('agents read from frozen objects (the read cache)', () => {
  it('are built once while their objects stay the same, frozen, and again for the object that changed', async () => {
    const kube = fixture();
    const rc: ReadContext = { kube: frozenReads(kube), types, chartUrl: CHART_URL };
    const first = (await listAgents(rc, 'kagent')).agents;
    const second = (await listAgents(rc, 'kagent')).agents;
    expect(first.map((a) => a.name)).toEqual(['a', 'b', 'pending']);
    expect(second.every((agent, i) => agent === first[i])).toBe(true);
    expect(Object.isFrozen(first[0]) && Object.isFrozen(first[0]!.helmRelease)).toBe(true);
    expect(await getAgent(rc, 'kagent', 'b')).toBe(first[1]);

    // A new version of b's release (what a watch event brings): b is rebuilt, the rest reused.
    const release = kube.store.get('helmreleases', 'kagent', 'b') as KubeObject;
    await kube.replace(types.helmRelease, { ...release, spec: { ...(release.spec as object), suspend: true } });
    const third = (await listAgents(rc, 'kagent')).agents;
    expect(third[0]).toBe(first[0]);
    expect(third[2]).toBe(first[2]);
    expect(third[1]).not.toBe(first[1]);
    expect(third[1]!.helmRelease?.suspended).toBe(true);
  });

  it('are built afresh from objects read from the API server, and stay the caller\'s to change', async () => {
    const rc: ReadContext = { kube: fixture(), types, chartUrl: CHART_URL };
    const [first] = (await listAgents(rc, 'kagent')).agents;
    const [second] = (await listAgents(rc, 'kagent')).agents;
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(Object.isFrozen(first)).toBe(false);
  });
});

describe('list rows (details=false) of frozen agents', () => {
  it('are made once per agent, frozen, the same as summaryOf makes them; a fresh agent gets a fresh row', async () => {
    const rc: ReadContext = { kube: frozenReads(fixture()), types, chartUrl: CHART_URL };
    const [agent] = (await listAgents(rc, 'kagent')).agents;
    const row = summaryRow(agent!);
    expect(row).toEqual(summaryOf(agent!));
    expect(Object.isFrozen(row)).toBe(true);
    expect(summaryRow((await listAgents(rc, 'kagent')).agents[0]!)).toBe(row);
    const [fresh] = (await listAgents({ ...rc, kube: fixture() }, 'kagent')).agents;
    expect(summaryRow(fresh!)).not.toBe(summaryRow(fresh!));
    expect(Object.isFrozen(summaryRow(fresh!))).toBe(false);
  });
});

describe('a list over an answer of the wrong shape', () => {
  it('degrades the item whose cross-namespace release came back malformed, and lists the rest', async () => {
    const kube = fixture();
    seedAgentCr(kube, { name: 'far', release: { name: 'far', namespace: 'flux-system' }, ready: true, accepted: true });
    const odd: KubePort = {
      create: (gvr, object, options) => kube.create(gvr, object, options),
      replace: (gvr, object, options) => kube.replace(gvr, object, options),
      remove: (gvr, ns, name, options) => kube.remove(gvr, ns, name, options),
      list: (gvr, ns) => kube.list(gvr, ns),
      // What a broken proxy or a foreign object might answer: JSON without metadata.
      get: async (gvr, ns, name) => (ns === 'flux-system' ? ({ kind: 'HelmRelease' } as unknown as KubeObject) : kube.get(gvr, ns, name)),
    };
    const { agents, warnings } = await listAgents({ kube: odd, types, chartUrl: CHART_URL }, 'kagent');
    expect(agents.map((a) => a.name)).toEqual(['a', 'b', 'far', 'pending']);
    expect(agents.find((a) => a.name === 'far')).toMatchObject({
      exists: true, ready: true, error: { code: 'backend_error', message: 'the HelmRelease flux-system/far the Agent\'s labels name is malformed: it has no metadata.name' },
    });
    expect(warnings).toHaveLength(1);
  });
});

/**
 * An agent's history end to end, with downstream OAuth: every write is made as its
 * caller (a local OIDC issuer, the sandbox trusting it, RBAC on), so the revisions name
 * who made each change. Create, two updates by two people, the list and one revision,
 * a rollback, a kubectl edit outside agent-manager, and the delete that takes the
 * history with it (the sandbox's garbage collector, through ownerReferences).
 *
 * The callers' Role has to allow ControllerRevisions (docs/security.md): the suite adds
 * that grant to the platform admins, as a cluster admin would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVISION_ANNOTATION } from '../../src/core/revisions/revision-record.js';
import { eventually } from '../support/eventually.js';
import { request } from './helpers.js';
import { spec, startIdentityStack, type IdentityStack } from './stack.js';

let stack: IdentityStack;
let base: string;
const opts = { fieldManager: 'revisions-test' };

beforeAll(async () => {
  stack = await startIdentityStack({ controllers: true });
  base = stack.base;
  const rbac = 'rbac.authorization.k8s.io';
  stack.fixture.sandbox.store.create('roles', {
    apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name: 'agent-history', namespace: 'kagent' },
    rules: [{ apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['get', 'list', 'watch', 'create', 'delete'] }],
  }, opts);
  stack.fixture.sandbox.store.create('rolebindings', {
    apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: 'agent-history', namespace: 'kagent' },
    roleRef: { apiGroup: rbac, kind: 'Role', name: 'agent-history' },
    subjects: [{ apiGroup: rbac, kind: 'Group', name: 'platform-admins' }],
  }, opts);
});
afterAll(async () => {
  await stack?.close();
});

/** Poll until `probe` answers something (10 s at most). */
const until = <T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> =>
  eventually(probe, 10_000, what);

const revisionsOf = (name: string) =>
  stack.fixture.sandbox.store.list('controllerrevisions', { namespace: 'kagent', labelSelector: `agent-manager.giantswarm.io/agent=${name}` }).items;
const liveValues = (name: string) => (stack.fixture.sandbox.store.get('helmreleases', 'kagent', name).spec as { values: unknown }).values;

describe('an agent\'s revisions, written as the callers', () => {
  const agent = 'history';
  let alice: string;
  let carol: string;

  it('records create, update and update as revisions 1, 2, 3 naming who made them', async () => {
    alice = await stack.tokenFor('alice');
    carol = await stack.tokenFor('alice', { sub: 'sub-carol', email: 'carol@lab.local' });
    const created = await request(`${base}/api/v1/agents`, { method: 'POST', token: alice, body: { ...spec(agent), description: 'first' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ revision: 1, requestedBy: 'alice@lab.local' });
    expect(created.json?.notes).toBeUndefined();
    const second = await request(`${base}/api/v1/agents/kagent/${agent}`, { method: 'PATCH', token: alice, body: { description: 'second' } });
    expect(second.json).toMatchObject({ revision: 2, changed: ['agent.description'] });
    const third = await request(`${base}/api/v1/agents/kagent/${agent}`, {
      method: 'PATCH', token: carol, body: { systemMessage: 'Be brief.', toolset: ['preset:none'] },
    });
    expect(third.json).toMatchObject({ revision: 3, requestedBy: 'carol@lab.local', changed: ['agent.systemMessage', 'toolset'] });

    const list = await request(`${base}/api/v1/agents/kagent/${agent}/revisions`, { token: carol });
    expect(list.status).toBe(200);
    const revisions = list.json!.revisions as Array<Record<string, unknown>>;
    expect(revisions.map((r) => [r.revision, r.operation, r.requestedBy, r.current])).toEqual([
      [3, 'update', 'carol@lab.local', true],
      [2, 'update', 'alice@lab.local', undefined],
      [1, 'create', 'alice@lab.local', undefined],
    ]);
    expect(revisions.map((r) => r.changed)).toEqual([
      ['agent.systemMessage', 'toolset'],
      ['agent.description'],
      ['agent.description', 'agent.name', 'modelConfig.name', 'toolset'],
    ]);
    for (const r of revisions) expect(Date.parse(String(r.createdAt))).not.toBeNaN();
    // The ControllerRevisions as kubectl sees them: named after agent and number, owned by the release.
    const release = stack.fixture.sandbox.store.get('helmreleases', 'kagent', agent);
    expect(revisionsOf(agent).map((o) => (o.metadata as { name: string }).name).sort()).toEqual([`${agent}-1`, `${agent}-2`, `${agent}-3`]);
    const meta = revisionsOf(agent)[0]!.metadata as Record<string, any>;
    expect(meta.labels).toEqual({ 'agent-manager.giantswarm.io/agent': agent, 'app.kubernetes.io/managed-by': 'agent-manager' });
    expect(meta.ownerReferences).toEqual([{ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: agent, uid: (release.metadata as { uid: string }).uid }]);
    expect((release.metadata as { annotations: Record<string, string> }).annotations[REVISION_ANNOTATION]).toBe('3');
  });

  it('reads revision 1 back with its spec, values, manifests and what differs from the live agent', async () => {
    const one = await request(`${base}/api/v1/agents/kagent/${agent}/revisions/1`, { token: alice });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({
      revision: 1, operation: 'create', requestedBy: 'alice@lab.local',
      spec: { description: 'first', modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
      values: { agent: { name: agent, description: 'first' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only'] },
      diff: ['agent.description', 'agent.systemMessage', 'toolset'],
    });
    expect(one.json?.current).toBeUndefined();
    expect(one.json?.manifests.helmRelease).toContain('description: first');
    // Once Flux deployed it, the revision carries what Flux reports for its values.
    const deployed = await until(async () => {
      const r = await request(`${base}/api/v1/agents/kagent/${agent}/revisions`, { token: alice });
      const entries = r.json!.revisions as Array<Record<string, unknown>>;
      return entries[0]?.status === 'deployed' ? entries : undefined;
    }, 'revision 3 deployed');
    expect(deployed[0]!.chartVersion).toMatch(/^0\.\d+\.\d+\+[0-9a-f]{12}$/);
  });

  it('rolls back to revision 1 as revision 4, whose spec is revision 1\'s, and writes its values', async () => {
    const rolled = await request(`${base}/api/v1/agents/kagent/${agent}/rollback`, { method: 'POST', token: carol, body: { revision: 1 } });
    expect(rolled.status).toBe(200);
    expect(rolled.json).toMatchObject({ revision: 4, rolledBackTo: 1, requestedBy: 'carol@lab.local', changed: ['agent.description', 'agent.systemMessage', 'toolset'] });
    const [one, four] = await Promise.all([1, 4].map((n) => request(`${base}/api/v1/agents/kagent/${agent}/revisions/${n}`, { token: alice })));
    expect(four!.json).toMatchObject({ revision: 4, operation: 'rollback', rolledBackTo: 1, current: true, diff: [] });
    expect(four!.json!.spec).toEqual(one!.json!.spec);
    expect(liveValues(agent)).toEqual(one!.json!.values);
    // Going back again to what is live writes nothing and records nothing.
    const again = await request(`${base}/api/v1/agents/kagent/${agent}/rollback`, { method: 'POST', token: carol, body: { revision: 1 } });
    expect(again.json).toMatchObject({ changed: [], rolledBackTo: 1 });
    expect(again.json?.revision).toBeUndefined();
    expect(again.json?.notes[0]).toMatch(/nothing was written/);
    expect(revisionsOf(agent)).toHaveLength(4);
  });

  it('shows a kubectl edit as the revision: null entry with what differs', async () => {
    const release = stack.fixture.sandbox.store.get('helmreleases', 'kagent', agent);
    const edited = structuredClone(release) as Record<string, any>;
    edited.spec.values.agent.description = 'edited by hand';
    edited.spec.values.replicas = 2;
    stack.fixture.sandbox.store.update('helmreleases', edited, { fieldManager: 'kubectl-edit' });
    const list = await request(`${base}/api/v1/agents/kagent/${agent}/revisions`, { token: alice });
    const revisions = list.json!.revisions as Array<Record<string, unknown>>;
    expect(revisions[0]).toMatchObject({ revision: null, current: true, changed: ['agent.description', 'replicas'] });
    expect(revisions.slice(1).map((r) => [r.revision, r.current])).toEqual([
      [4, undefined], [3, undefined], [2, undefined], [1, undefined],
    ]);
  });

  it('leaves no ControllerRevision once the agent is deleted', async () => {
    const deleted = await request(`${base}/api/v1/agents/kagent/${agent}`, { method: 'DELETE', token: alice });
    expect(deleted.status).toBe(200);
    await until(() => (stack.hrExists(agent) || revisionsOf(agent).length > 0 ? undefined : true), 'the history to be collected');
    expect(revisionsOf(agent)).toEqual([]);
  });
});

/**
 * The simulated controllers, driven through the real @kubernetes/client-node: a
 * HelmRelease becomes a rendered Agent (Flux provenance labels, chart labels, display
 * name), kagent runs its Deployment and pods until the Agent is Ready; upgrades keep
 * the history; suspension stops reconciliation; deletion uninstalls (but not for a
 * suspended release); values the chart refuses give InstallFailed / UpgradeFailed; an
 * Agent whose ModelConfig is missing is not accepted; a hold keeps a release unreconciled. The
 * tests run at once, each on objects of its own; every wait is a poll with a deadline.
 */
import { PatchStrategy, setHeaderOptions, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { eventually, HR, helmRelease, rejection, startHarness, type Harness } from './harness.js';

const AGENT = { group: 'kagent.dev', version: 'v1alpha2', plural: 'agents' } as const;
const OCI = { group: 'source.toolkit.fluxcd.io', version: 'v1', plural: 'ocirepositories' } as const;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ controllers: true, reconcileDelayMs: 10 });
});
afterAll(async () => {
  await h.sandbox.close();
});

const cond = (obj: any, type: string) => (obj?.status?.conditions ?? []).find((c: any) => c.type === type);
const getHr = (name: string, namespace = 'kagent') => h.custom.getNamespacedCustomObject({ ...HR, namespace, name }) as Promise<any>;
const getAgent = (name: string, namespace = 'kagent') => h.custom.getNamespacedCustomObject({ ...AGENT, namespace, name }) as Promise<any>;
const mergePatch = (name: string, body: unknown, namespace = 'kagent') =>
  h.objects.patch({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name, namespace }, ...(body as object) } as any, undefined, undefined, undefined, undefined, 'application/merge-patch+json' as any);

async function create(name: string, values: Record<string, unknown>, namespace = 'kagent') {
  const body = helmRelease(name, namespace);
  body.spec.values = { agent: { name }, modelConfig: { name: 'default-model-config' }, ...values };
  await h.custom.createNamespacedCustomObject({ ...HR, namespace, body });
}

async function readyRelease(name: string, namespace = 'kagent') {
  return eventually(async () => {
    const hr = await getHr(name, namespace);
    return cond(hr, 'Ready')?.status === 'True' ? hr : undefined;
  }, 10_000, `HelmRelease ${namespace}/${name} Ready`);
}

async function readyAgent(name: string, namespace = 'kagent') {
  return eventually(async () => {
    const agent = await getAgent(name, namespace);
    return cond(agent, 'Ready')?.status === 'True' ? agent : undefined;
  }, 10_000, `Agent ${namespace}/${name} Ready`);
}

describe.concurrent('source-controller', () => {
  it('marks the shared OCIRepository Ready with an artifact revision', async ({ expect }) => {
    const repo: any = await eventually(async () => {
      const r: any = await h.custom.getNamespacedCustomObject({ ...OCI, namespace: 'kagent', name: 'agent' });
      return cond(r, 'Ready')?.status === 'True' ? r : undefined;
    });
    expect(repo.status.artifact.revision).toMatch(/^0\.6\.1@sha256:[0-9a-f]{64}$/);
    expect(cond(repo, 'ArtifactInStorage')).toMatchObject({ status: 'True', reason: 'Succeeded' });
    expect(cond(repo, 'Ready').message).toBe(`stored artifact for digest '${repo.status.artifact.revision}'`);
    expect(repo.metadata.finalizers).toEqual(['finalizers.fluxcd.io']);
  });
});

describe.concurrent('helm-controller and kagent', () => {
  it('turns a HelmRelease into an Agent whose Deployment becomes available', async ({ expect }) => {
    await create('sre', { agent: { name: 'sre', displayName: 'SRE Assistant', description: 'Helps', iconUrl: 'https://x/icon.png' }, toolset: ['preset:read-only', 'workflow:incident-triage'] });
    const hr = await readyRelease('sre');
    expect(hr.metadata.finalizers).toEqual(['finalizers.fluxcd.io']);
    expect(cond(hr, 'Ready')).toMatchObject({ reason: 'InstallSucceeded' });
    expect(cond(hr, 'Released')).toMatchObject({ status: 'True', reason: 'InstallSucceeded' });
    expect(cond(hr, 'Ready').message).toMatch(/^Helm install succeeded for release kagent\/sre\.v1 with chart agent@0\.6\.1\+[0-9a-f]{12}$/);
    expect(hr.status.history).toHaveLength(1);
    expect(hr.status.history[0]).toMatchObject({ name: 'sre', namespace: 'kagent', version: 1, status: 'deployed', chartName: 'agent' });
    expect(hr.status.history[0].chartVersion).toMatch(/^0\.6\.1\+[0-9a-f]{12}$/);
    expect(hr.status.lastAttemptedRevision).toBe(hr.status.history[0].chartVersion);
    expect(hr.status.inventory.entries).toEqual([{ id: 'kagent_sre_kagent.dev_Agent', v: 'v1alpha2' }]);

    const agent = await readyAgent('sre');
    expect(agent.metadata.labels).toMatchObject({
      'helm.toolkit.fluxcd.io/name': 'sre', 'helm.toolkit.fluxcd.io/namespace': 'kagent', 'app.kubernetes.io/managed-by': 'Helm',
      'app.kubernetes.io/instance': 'sre', 'helm.sh/chart': 'agent-0.6.1', 'app.kubernetes.io/version': '0.6.1',
    });
    expect(agent.metadata.annotations['ui.giantswarm.io/display-name']).toBe('SRE Assistant');
    expect(agent.spec).toMatchObject({ type: 'Declarative', description: 'Helps', iconUrl: 'https://x/icon.png' });
    expect(agent.spec.declarative).toMatchObject({ runtime: 'go', modelConfig: 'default-model-config', systemMessage: 'You are a helpful agent.\n' });
    expect(agent.spec.declarative.tools).toEqual([{
      type: 'McpServer',
      mcpServer: { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', namespace: 'agent-platform', allowedHeaders: ['authorization'] },
      headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:read-only,workflow:incident-triage' }],
    }]);
    expect(agent.spec.declarative.deployment).toMatchObject({ replicas: 1, env: [{ name: 'KAGENT_PROPAGATE_TOKEN', value: 'true' }] });
    expect(cond(agent, 'Accepted')).toMatchObject({ status: 'True', reason: 'Reconciled' });
    expect(cond(agent, 'Ready')).toMatchObject({ reason: 'DeploymentReady', message: 'Deployment is ready' });

    const deployment = await h.apps.readNamespacedDeployment({ namespace: 'kagent', name: 'sre' });
    expect(deployment.status?.availableReplicas).toBe(1);
    expect(deployment.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Agent', name: 'sre', controller: true });
    expect(deployment.spec?.selector.matchLabels).toEqual({ app: 'kagent', kagent: 'sre' });
    expect(deployment.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    const pods = await h.core.listNamespacedPod({ namespace: 'kagent', labelSelector: 'kagent=sre' });
    expect(pods.items).toHaveLength(1);
    expect(pods.items[0]!.metadata!.name).toMatch(/^sre-[bcdfghjklmnpqrstvwxz2456789]{10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pods.items[0]!.status).toMatchObject({ phase: 'Running' });
    expect(pods.items[0]!.status!.containerStatuses![0]).toMatchObject({ name: 'kagent', ready: true, restartCount: 0 });
  });

  it('upgrades on new values and keeps the history newest first', async ({ expect }) => {
    await create('upgraded', {});
    await readyRelease('upgraded');
    await mergePatch('upgraded', { spec: { values: { agent: { description: 'Helps more' } } } });
    const hr = await eventually(async () => {
      const r = await getHr('upgraded');
      return r.status.history?.length === 2 && cond(r, 'Ready')?.reason === 'UpgradeSucceeded' ? r : undefined;
    });
    expect(hr.status.history.map((e: any) => [e.version, e.status])).toEqual([[2, 'deployed'], [1, 'superseded']]);
    expect(hr.status.lastAttemptedReleaseAction).toBe('upgrade');
    expect((await getAgent('upgraded')).spec.description).toBe('Helps more');
  });

  it('holds back the reconciles of the release a hold names, and only those, until it is released', async ({ expect }) => {
    expect(() => h.sandbox.controllers!.hold({ controllers: ['nope'] })).toThrow(/^no controller named nope \(running: .*helm-controller/);
    const release = h.sandbox.controllers!.hold({ controllers: ['helm-controller'], name: 'held' });
    try {
      await create('held', {});
      await create('unheld', {});
      // The other release written after it was installed: helm-controller ran, yet not for this one.
      await readyRelease('unheld');
      const held = await getHr('held');
      expect(held.metadata.finalizers).toBeUndefined();
      expect(held.status?.conditions ?? []).toEqual([]);
      expect(held.status?.lastAttemptedGeneration).toBeUndefined();
    } finally {
      release();
    }
    expect((await readyRelease('held')).status.observedGeneration).toBe(1);
  });

  it('stamps generations as helm-controller does: the attempt first, observedGeneration only once the upgrade finished', async ({ expect }) => {
    await create('gens', {});
    const before = await readyRelease('gens');
    expect(before.status).toMatchObject({ observedGeneration: 1, lastAttemptedGeneration: 1 });
    expect(cond(before, 'Ready').observedGeneration).toBe(1);
    // Every state of the release as a watch sees it, from the version read on.
    const seen: any[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => { done = resolve; });
    const watch = await new Watch(h.kc).watch('/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases',
      { fieldSelector: 'metadata.name=gens', resourceVersion: before.metadata.resourceVersion }, (_type, obj: any) => {
        seen.push(obj);
        if (obj.status?.observedGeneration === 2 && cond(obj, 'Ready')?.status === 'True') done();
      }, () => undefined);
    try {
      await mergePatch('gens', { spec: { values: { agent: { description: 'v2' } } } });
      await finished;
    } finally {
      watch.abort();
    }
    const states = seen.map((o) => [o.metadata.generation, o.status?.lastAttemptedGeneration, o.status?.observedGeneration, cond(o, 'Ready')?.status]);
    expect(states[0]).toEqual([2, 1, 1, 'True']); // the write: nothing observed yet
    expect(states).toContainEqual([2, 2, 1, 'Unknown']); // the upgrade recorded and running
    expect(states.at(-1)).toEqual([2, 2, 2, 'True']);
    // Never Ready True for generation 2 before it was observed.
    expect(seen.filter((o) => o.status?.observedGeneration === 1 && cond(o, 'Ready')?.observedGeneration === 2 && cond(o, 'Ready')?.status === 'True')).toEqual([]);
    const agent = await readyAgent('gens');
    expect(agent.status.observedGeneration).toBe(agent.metadata.generation);
  });

  it('an upgrade replaces the labels and annotations the chart rendered, and keeps what others added', async ({ expect }) => {
    await create('named', { agent: { name: 'named', displayName: 'Old name' }, labels: { team: 'a', tier: 'x' }, annotations: { 'example.com/a': '1' } });
    const first = await eventually(async () => (await getAgent('named').catch(() => undefined))?.metadata.annotations?.['ui.giantswarm.io/display-name'] ? getAgent('named') : undefined);
    expect(first.metadata.labels).toMatchObject({ team: 'a', tier: 'x' });
    // Someone else labels the Agent (kubectl label): no chart renders that, so no upgrade removes it.
    await h.objects.patch({ apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'named', namespace: 'kagent', labels: { 'example.com/by-hand': 'yes' } } } as any,
      undefined, undefined, 'kubectl-label', undefined, 'application/merge-patch+json' as any);
    await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'named', body: {
      ...(await getHr('named')),
      spec: { ...(await getHr('named')).spec, values: { agent: { name: 'named' }, modelConfig: { name: 'default-model-config' }, labels: { team: 'b' } } },
    } });
    const upgraded = await eventually(async () => {
      const r = await getHr('named');
      return cond(r, 'Ready')?.reason === 'UpgradeSucceeded' ? getAgent('named') : undefined;
    });
    expect(upgraded.metadata.annotations?.['ui.giantswarm.io/display-name']).toBeUndefined();
    expect(upgraded.metadata.annotations?.['example.com/a']).toBeUndefined();
    expect(upgraded.metadata.labels.team).toBe('b');
    expect(upgraded.metadata.labels.tier).toBeUndefined();
    expect(upgraded.metadata.labels['example.com/by-hand']).toBe('yes');
    expect(upgraded.metadata.labels['helm.toolkit.fluxcd.io/name']).toBe('named');
  });

  it('renders no muster tool for exactly ["preset:none"]', async ({ expect }) => {
    await create('chatty', { toolset: ['preset:none'] });
    const agent = await eventually(() => getAgent('chatty').catch(() => undefined));
    expect(agent.spec.declarative.tools).toBeUndefined();
  });

  it('reports InstallFailed for values the chart schema refuses, and installs nothing', async ({ expect }) => {
    await create('broken', { agent: { name: 'broken', runtime: 'rust' } });
    const hr = await eventually(async () => {
      const r = await getHr('broken');
      return cond(r, 'Ready')?.status === 'False' ? r : undefined;
    });
    expect(cond(hr, 'Ready')).toMatchObject({ reason: 'InstallFailed' });
    expect(cond(hr, 'Ready').message).toContain("values don't meet the specifications of the schema(s)");
    expect(cond(hr, 'Ready').message).toContain('/agent/runtime');
    expect(cond(hr, 'Released')).toMatchObject({ status: 'False', reason: 'InstallFailed' });
    expect(cond(hr, 'Stalled')).toMatchObject({ status: 'True', reason: 'RetriesExceeded' });
    expect(hr.status.history ?? []).toEqual([]);
    expect(hr.status.installFailures).toBe(1);
    expect((await rejection(getAgent('broken'))).code).toBe(404);
  });

  it('reports a toolset the chart template refuses as InstallFailed', async ({ expect }) => {
    await create('badtools', { toolset: ['preset:read-only', 'bogus'] });
    const hr = await eventually(async () => {
      const r = await getHr('badtools');
      return cond(r, 'Ready')?.status === 'False' ? r : undefined;
    });
    expect(cond(hr, 'Ready').reason).toBe('InstallFailed');
    expect(cond(hr, 'Ready').message).toContain('toolset selector "bogus"');
  });

  it('records a failed release when the API server refuses the rendered Agent', async ({ expect }) => {
    await create('refused', { extraAgentSpec: { declarative: { runtime: 'rust' } } });
    const hr = await eventually(async () => {
      const r = await getHr('refused');
      return cond(r, 'Ready')?.status === 'False' ? r : undefined;
    });
    expect(cond(hr, 'Ready').reason).toBe('InstallFailed');
    expect(cond(hr, 'Ready').message).toContain('failed to create resource: Agent.kagent.dev "refused" is invalid: spec.declarative.runtime: Unsupported value: "rust"');
    expect(hr.status.history.map((e: any) => [e.version, e.status])).toEqual([[1, 'failed']]);
  });

  it('reports UpgradeFailed and leaves the running Agent as it was', async ({ expect }) => {
    await create('steady', {});
    await readyRelease('steady');
    await mergePatch('steady', { spec: { values: { agent: { runtime: 'rust' } } } });
    const hr = await eventually(async () => {
      const r = await getHr('steady');
      return cond(r, 'Ready')?.status === 'False' ? r : undefined;
    });
    expect(cond(hr, 'Ready').reason).toBe('UpgradeFailed');
    expect(hr.status.history.map((e: any) => e.status)).toEqual(['deployed']);
    expect((await getAgent('steady')).spec.declarative.runtime).toBe('go');
  });

  it('acts on nothing for a suspended release, observing its generation as helm-controller does', async ({ expect }) => {
    await create('frozen', {});
    await readyRelease('frozen');
    await mergePatch('frozen', { spec: { suspend: true } });
    await eventually(async () => ((await getHr('frozen')).spec.suspend === true ? true : undefined));
    await mergePatch('frozen', { spec: { values: { agent: { description: 'changed while suspended' } } } });
    // A barrier: another release reconciled after the change proves the controller has run since.
    await create('witness', {});
    await readyRelease('witness');
    const hr = await getHr('frozen');
    expect(hr.status.observedGeneration).toBe(hr.metadata.generation);
    expect(hr.status.lastAttemptedGeneration).toBeLessThan(hr.metadata.generation);
    expect(hr.status.history).toHaveLength(1);
    expect((await getAgent('frozen')).spec.description).toBeUndefined();
  });

  it('acknowledges reconcile.fluxcd.io/requestedAt in status.lastHandledReconcileAt, as flux reconcile waits for', async ({ expect }) => {
    await create('poked', {});
    await readyRelease('poked');
    await mergePatch('poked', { metadata: { name: 'poked', namespace: 'kagent', annotations: { 'reconcile.fluxcd.io/requestedAt': '2026-12-04T17:00:00Z' } } });
    await eventually(async () => ((await getHr('poked')).status.lastHandledReconcileAt === '2026-12-04T17:00:00Z' ? true : undefined));
    expect((await getHr('poked')).status.conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('True');
  });

  it('leaves a status written by hand as it is: only a new generation or a reconcile request starts a reconcile', async ({ expect }) => {
    await create('hand-written', {});
    await readyRelease('hand-written');
    const before = await getHr('hand-written');
    const conditions = before.status.conditions.map((c: { type: string }) => (c.type === 'Ready'
      ? { ...c, status: 'False', reason: 'UpgradeFailed', message: 'written by a test' } : c));
    await h.custom.patchNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'hand-written',
      body: { status: { conditions } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    // A barrier: another release reconciled after the patch proves the controller has run since.
    await create('hand-witness', {});
    await readyRelease('hand-witness');
    expect(cond(await getHr('hand-written'), 'Ready')).toMatchObject({ status: 'False', message: 'written by a test' });
    // A reconcile request is a reason: helm-controller judges the release again.
    await mergePatch('hand-written', { metadata: { name: 'hand-written', namespace: 'kagent', annotations: { 'reconcile.fluxcd.io/requestedAt': 'again' } } });
    await eventually(async () => (cond(await getHr('hand-written'), 'Ready')?.status === 'True' ? true : undefined));
  });

  it('upgrades a release in sync on flux reconcile --force, and retries one whose retries ran out on --reset', async ({ expect }) => {
    await create('forced', {});
    await readyRelease('forced');
    const annotate = (name: string, annotations: Record<string, string>) =>
      mergePatch(name, { metadata: { name, namespace: 'kagent', annotations } });
    await annotate('forced', { 'reconcile.fluxcd.io/requestedAt': 'f1', 'reconcile.fluxcd.io/forceAt': 'f1' });
    const forced = await eventually(async () => {
      const r = await getHr('forced');
      return r.status.lastHandledForceAt === 'f1' && cond(r, 'Ready')?.status === 'True' ? r : undefined;
    });
    expect(forced.status.history.map((e: { status: string }) => e.status)).toEqual(['deployed', 'superseded']);
    // A chart the values break fails for good (retries exhausted); --reset tries it again.
    await create('reset', { agent: { name: 'reset', runtime: 'rust' } });
    await eventually(async () => (cond(await getHr('reset'), 'Stalled')?.status === 'True' ? true : undefined));
    const attempts = async () => (await h.core.listNamespacedEvent({ namespace: 'kagent', fieldSelector: 'involvedObject.name=reset' }))
      .items.filter((e) => e.reason === 'InstallFailed').reduce((sum, e) => sum + (e.count ?? 1), 0);
    expect(await attempts()).toBe(1);
    await annotate('reset', { 'reconcile.fluxcd.io/requestedAt': 'r1', 'reconcile.fluxcd.io/resetAt': 'r1' });
    await eventually(async () => ((await attempts()) === 2 ? true : undefined), 10_000, 'a second install attempt');
    const reset = await getHr('reset');
    expect(reset.status).toMatchObject({ lastHandledResetAt: 'r1', lastHandledReconcileAt: 'r1', installFailures: 1 });
  });

  it('uninstalls on deletion: the release, the Agent, its Deployment and its pods go', async () => {
    await create('doomed', {});
    await readyAgent('doomed');
    await eventually(async () => ((await h.core.listNamespacedPod({ namespace: 'kagent', labelSelector: 'kagent=doomed' })).items.length === 1 ? true : undefined));
    await h.custom.deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'doomed' });
    await eventually(async () => ((await rejection(getHr('doomed'))).code === 404 ? true : undefined), 10_000, 'the HelmRelease gone');
    await eventually(async () => ((await rejection(getAgent('doomed'))).code === 404 ? true : undefined), 10_000, 'the Agent gone');
    await eventually(async () => ((await rejection(h.apps.readNamespacedDeployment({ namespace: 'kagent', name: 'doomed' }))).code === 404 ? true : undefined));
    await eventually(async () => ((await h.core.listNamespacedPod({ namespace: 'kagent', labelSelector: 'kagent=doomed' })).items.length === 0 ? true : undefined));
  });

  it('drops the finalizer of a suspended release without uninstalling', async ({ expect }) => {
    await create('kept', {});
    await readyAgent('kept');
    await mergePatch('kept', { spec: { suspend: true } });
    await h.custom.deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'kept' });
    await eventually(async () => ((await rejection(getHr('kept'))).code === 404 ? true : undefined));
    expect((await getAgent('kept')).metadata.name).toBe('kept');
  });

  it('does not accept an Agent whose ModelConfig is missing, and runs nothing for it', async ({ expect }) => {
    await h.custom.createNamespacedCustomObject({
      ...OCI, namespace: 'tenant',
      body: { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: { name: 'agent', namespace: 'tenant' }, spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: '0.x' } } },
    });
    await create('lonely', {}, 'tenant');
    const agent = await eventually(async () => {
      const a = await getAgent('lonely', 'tenant').catch(() => undefined);
      return cond(a, 'Accepted') ? a : undefined;
    });
    expect(cond(agent, 'Accepted')).toMatchObject({ status: 'False', reason: 'ReconcileFailed' });
    expect(cond(agent, 'Accepted').message).toContain('modelconfigs.kagent.dev "default-model-config" not found');
    expect(cond(agent, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'DeploymentNotFound' });
    expect((await rejection(h.apps.readNamespacedDeployment({ namespace: 'tenant', name: 'lonely' }))).code).toBe(404);
  });

  it('gives a bare Agent CR a Deployment and makes it Ready', async ({ expect }) => {
    await h.custom.createNamespacedCustomObject({
      ...AGENT, namespace: 'kagent',
      body: { apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'bare' }, spec: { type: 'Declarative', declarative: { modelConfig: 'qwen3-8-27b', systemMessage: 'hi' } } },
    });
    const agent = await readyAgent('bare');
    expect(agent.metadata.labels ?? {}).not.toHaveProperty('helm.toolkit.fluxcd.io/name');
  });
});

describe.concurrent('deployment-controller', () => {
  const rsOf = async (deployment: string) => (await h.apps.listNamespacedReplicaSet({ namespace: 'tenant' })).items
    .filter((rs) => rs.metadata?.ownerReferences?.some((o) => o.name === deployment));
  const revision = (o: { metadata?: { annotations?: Record<string, string> } }) => o.metadata?.annotations?.['deployment.kubernetes.io/revision'];

  it('takes an earlier ReplicaSet back under the next revision when its template returns, as kubectl rollout undo does', async ({ expect }) => {
    // Go clients write a null creationTimestamp into templates; the controller compares templates as typed objects.
    const template = (image: string) => ({
      metadata: { creationTimestamp: null, labels: { app: 'undo' } },
      spec: { containers: [{ name: 'web', image, resources: {} }] },
    });
    const body = { metadata: { name: 'undo' }, spec: { replicas: 1, selector: { matchLabels: { app: 'undo' } }, template: template('nginx:1') } };
    await h.apps.createNamespacedDeployment({ namespace: 'tenant', body: body as any });
    const first = await eventually(async () => (await rsOf('undo')).find((rs) => rs.status?.readyReplicas === 1), 10_000, 'the first ReplicaSet');
    // The controllers write the Deployment too, so a replace retries on a Conflict as clients do.
    const replace = (image: string) => eventually(async () => {
      const current = await h.apps.readNamespacedDeployment({ namespace: 'tenant', name: 'undo' });
      return h.apps.replaceNamespacedDeployment({ namespace: 'tenant', name: 'undo', body: { ...current, spec: { ...current.spec!, template: template(image) as any } } });
    }, 10_000, `the template with ${image}`);
    await replace('nginx:2');
    await eventually(async () => ((await rsOf('undo')).length === 2 ? true : undefined), 10_000, 'a second ReplicaSet');
    await replace('nginx:1');

    const back = await eventually(async () => {
      const sets = await rsOf('undo');
      const again = sets.find((rs) => rs.metadata!.name === first.metadata!.name);
      return again && revision(again) === '3' && again.spec!.replicas === 1 ? sets : undefined;
    }, 10_000, 'the first ReplicaSet back at revision 3');
    expect(back).toHaveLength(2);
    const deployment = await eventually(async () => {
      const d = await h.apps.readNamespacedDeployment({ namespace: 'tenant', name: 'undo' });
      return revision(d) === '3' ? d : undefined;
    }, 10_000, 'the Deployment at revision 3');
    expect(deployment.metadata!.generation).toBe(3);
  });
});

describe.concurrent('kubelet', () => {
  it('stops a deleted pod and removes it, while its ReplicaSet starts a replacement', async ({ expect }) => {
    const body = {
      metadata: { name: 'terminating' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'terminating' } }, template: { metadata: { labels: { app: 'terminating' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
    };
    await h.apps.createNamespacedDeployment({ namespace: 'tenant', body });
    const listPods = async () => (await h.core.listNamespacedPod({ namespace: 'tenant', labelSelector: 'app=terminating' })).items;
    const first = await eventually(async () => (await listPods()).find((p) => p.status?.phase === 'Running'), 10_000, 'a running pod');
    const deleting = await h.core.deleteNamespacedPod({ namespace: 'tenant', name: first.metadata!.name! }) as any;
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    const after = await eventually(async () => {
      const items = await listPods();
      const replaced = !items.some((p) => p.metadata!.name === first.metadata!.name) && items.some((p) => p.status?.phase === 'Running');
      return replaced ? items : undefined;
    }, 10_000, 'the deleted pod gone and a replacement running');
    expect(after).toHaveLength(1);
  });
});

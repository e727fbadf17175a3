/**
 * The life of a change to a GitOps-owned agent, as a portal drives it over REST: the live
 * write is refused with the commit-mode hint; apply mode's dry run composes the objects;
 * commit mode opens a pull request whose branch `kubectl kustomize` renders into exactly
 * those objects; after the merge, the rendering is applied the way Flux's
 * kustomize-controller applies it (server-side apply, its field manager, its labels) and
 * the agent and its history show the change: the live toolset is the proposed one, and the
 * revision list starts with the entry of a change made outside agent-manager, since the
 * commit-mode write itself recorded no revision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SRE_VALUES } from '../support/github/commit-world.js';
import { fluxApplies, merge } from './flux-apply.js';
import { seedRevision, storedRevisions } from './seed-revisions.js';
import { serveCommitWorld, type Served } from './served.js';
import { byKind, kubectlPresent, kustomize, type CommitWorld } from './support.js';

let served: Served;
let w: CommitWorld;
let base: string;

beforeAll(async () => {
  // The agent as agent-manager last applied it, before it moved to git.
  served = await serveCommitWorld('app', (world) => seedRevision(world.f.sandbox, 1, SRE_VALUES));
  ({ w, base } = served);
});
afterAll(() => served?.close());

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() as any };
}

describe.skipIf(!kubectlPresent)('a GitOps-owned agent changed through a pull request', () => {
  it('goes from the refused live write to a merged change Flux applies, the branch rendering what apply mode\'s dry run composed', async () => {
    const toolset = ['preset:kubernetes-read', 'server:prometheus'];

    const refused = await api('PATCH', '/agents/kagent/sre', { toolset });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toContain('With mode "commit", agent-manager would open a pull request against acme/fleet@main changing clusters/prod/agents.yaml.');

    // Apply mode's dry run: what a live write would store.
    const dry = await api('PATCH', '/agents/kagent/sre?dryRun=true&force=true', { toolset });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ dryRun: true, changed: ['toolset'] });
    expect(dry.json.mode).toBe('apply');

    const proposed = await api('PATCH', '/agents/kagent/sre?mode=commit', { toolset });
    expect(proposed.status).toBe(200);
    const { branch, number } = proposed.json.commit;
    expect(proposed.json).not.toHaveProperty('revision');

    const rendered = await kustomize(w.world, branch, 'clusters/prod');
    expect(byKind(rendered, 'HelmRelease', 'sre')).toEqual(parse(dry.json.manifests.helmRelease));
    expect(byKind(rendered, 'OCIRepository', 'agent')).toEqual(parse(dry.json.manifests.ociRepository));
    expect(byKind(rendered, 'ConfigMap', 'notes')).toBeDefined(); // the rest of the Kustomization's path renders as before

    // Before the merge the cluster is as it was and the history unchanged.
    expect((await api('GET', '/agents/kagent/sre')).json.toolset).toEqual(SRE_VALUES.toolset);
    expect(storedRevisions(w.f.sandbox)).toEqual(['sre-1']);

    // The reviewer merges (main fast-forwards to the branch) and Flux applies the path.
    const pull = w.world.github.pulls('acme/fleet').find((p) => p.number === number)!;
    expect(pull.head).toBe(branch);
    await merge(w.world.repo, branch);
    const merged = await kustomize(w.world, 'main', 'clusters/prod');
    await fluxApplies(w.f.sandbox, merged.filter((o) => o.kind !== 'ConfigMap'), 'prod');

    const agent = (await api('GET', '/agents/kagent/sre')).json;
    expect(agent).toMatchObject({ toolset, managed: 'gitops' });
    const history = (await api('GET', '/agents/kagent/sre/revisions')).json.revisions;
    expect(history[0]).toMatchObject({ revision: null, current: true, changed: ['toolset'] });
    expect(history[1]).toMatchObject({ revision: 1, operation: 'update' });
    expect(storedRevisions(w.f.sandbox)).toEqual(['sre-1']);

    // The same change proposed again finds git already carrying it.
    const again = await api('PATCH', '/agents/kagent/sre?mode=commit&dryRun=true', { toolset });
    expect(again.json.changed).toEqual([]);
    expect(again.json.commit.files).toEqual([{ path: 'clusters/prod/agents.yaml', action: 'unchanged', content: expect.any(String) }]);
  });
});

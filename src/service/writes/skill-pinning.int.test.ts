/**
 * Skill pinning through the service, against the GitHub double and a real docker-registry:
 * what create, update, rollback and validate write, what reads report, and that a refusal
 * or an unreachable backend writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushChart } from '../../../test/support/chart/push-chart.js';
import { registryTestMode, startRegistry, type RegistryServer } from '../../../test/support/chart/registry-server.js';
import { SKILL_REFS_ANNOTATION } from '../../core/skills/skill-pins.js';
import { openSkillResolver } from '../../skills/skill-resolver.js';
import { doubleCommit, startGitHubDouble, type GitHubDouble } from '../../../test/support/github/skills-github-double.js';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';

const registryMode = registryTestMode();
const REPO = 'https://github.com/giantswarm/agent-skills';
const MAIN = doubleCommit('giantswarm/agent-skills', 'main');
const TAG = doubleCommit('giantswarm/agent-skills', 'v1.0');
const MOVED = 'b'.repeat(40);
const BASE = { modelConfig: 'default-model-config', toolset: ['preset:read-only'] };

let github: GitHubDouble;
let registry: RegistryServer;
let f: FakeServiceFixture;
let digest: string;
let skillImage: string;

const release = (name: string) =>
  f.kube.store.get('helmreleases', 'kagent', name) as {
    metadata: { annotations?: Record<string, string> };
    spec: { values: { skills?: { gitRefs?: Array<Record<string, string>>; refs?: string[] } } };
  };
const exists = (name: string) => f.kube.store.find('helmreleases', 'kagent', name) !== undefined;
const revisionData = (name: string, n: number) => (f.kube.store.get('controllerrevisions', 'kagent', `${name}-${n}`) as { data: Record<string, unknown> }).data;

beforeAll(async () => {
  if (registryMode.mode === 'skip') return;
  github = await startGitHubDouble({
    repositories: {
      'giantswarm/agent-skills': { defaultBranch: 'main', refs: { main: { files: {} }, 'v1.0': { files: {} } } },
      'giantswarm/private-skills': { defaultBranch: 'main', private: true, refs: { main: { files: {} } } },
    },
  });
  registry = await startRegistry();
  ({ manifestDigest: digest } = await pushChart({ registryUrl: registry.url, repository: 'skills/runbooks', tag: '1.4.0', chart: { version: '1.4.0' } }));
  skillImage = `${registry.host}/skills/runbooks`;
  f = startFakeServiceFixture({
    skillResolver: openSkillResolver({ github: { apiUrl: github.url, retryBaseMs: 1 }, registry: {} }),
  });
}, 60_000);
afterAll(async () => {
  await github?.close();
  await registry?.close();
});

describe.skipIf(registryMode.mode === 'skip')('skills pinned at write time', () => {
  it('pins a branch, a tag and the default branch to commits and an OCI tag to its digest on create, and reads show both', async () => {
    const result = await f.service.createAgent(f.ctx(), {
      ...BASE, name: 'pinned',
      skills: {
        gitRefs: [{ url: REPO, path: 'runbooks', ref: 'main' }, { url: REPO, path: 'tagged', ref: 'v1.0' }, { url: `${REPO}.git`, path: 'default' }],
        refs: [`${skillImage}:1.4.0`],
      },
    });
    expect(release('pinned').spec.values.skills).toEqual({
      gitRefs: [
        { url: REPO, path: 'runbooks', ref: MAIN, name: 'runbooks' },
        { url: REPO, path: 'tagged', ref: TAG, name: 'tagged' },
        { url: `${REPO}.git`, path: 'default', ref: MAIN, name: 'default' },
      ],
      refs: [`${skillImage}@${digest}`],
    });
    expect(JSON.parse(release('pinned').metadata.annotations![SKILL_REFS_ANNOTATION]!)).toEqual({
      gitRefs: [
        { name: 'runbooks', url: REPO, ref: 'main', commit: MAIN },
        { name: 'tagged', url: REPO, ref: 'v1.0', commit: TAG },
        { name: 'default', url: `${REPO}.git`, commit: MAIN },
      ],
      refs: [{ ref: `${skillImage}:1.4.0`, digest }],
    });
    const expected = {
      gitRefs: [
        { url: REPO, path: 'runbooks', name: 'runbooks', ref: 'main', commit: MAIN },
        { url: REPO, path: 'tagged', name: 'tagged', ref: 'v1.0', commit: TAG },
        { url: `${REPO}.git`, path: 'default', name: 'default', commit: MAIN },
      ],
      refs: [{ ref: `${skillImage}:1.4.0`, digest }],
    };
    expect(result.agent.skills).toEqual(expected);
    expect((await f.service.getAgent(f.ctx(), { name: 'pinned' })).skills).toEqual(expected);
    expect(revisionData('pinned', 1).skillRefs).toEqual(JSON.parse(release('pinned').metadata.annotations![SKILL_REFS_ANNOTATION]!));
  });

  it('keeps a full commit given as ref or as commit without asking GitHub', async () => {
    const before = github.count();
    await f.service.createAgent(f.ctx(), {
      ...BASE, name: 'by-commit', skills: { gitRefs: [{ url: REPO, path: 'a', ref: MOVED }, { url: REPO, path: 'b', commit: TAG }] },
    });
    expect(github.count()).toBe(before);
    expect(release('by-commit').spec.values.skills!.gitRefs!.map((g) => g.ref)).toEqual([MOVED, TAG]);
    expect((await f.service.getAgent(f.ctx(), { name: 'by-commit' })).skills!.gitRefs).toEqual([
      { url: REPO, path: 'a', name: 'a', ref: MOVED, commit: MOVED },
      { url: REPO, path: 'b', name: 'b', ref: TAG, commit: TAG },
    ]);
  });

  it('refreshSkills keeps a skill asked as a commit on it, while a branch moves to its head and a tag to its commit', async () => {
    const RETAGGED = 'c'.repeat(40);
    await f.service.createAgent(f.ctx(), {
      ...BASE, name: 'mixed', skills: { gitRefs: [
        { url: REPO, path: 'branch', ref: 'main' }, { url: REPO, path: 'tag', ref: 'v1.0' },
        { url: REPO, path: 'as-ref', ref: TAG }, { url: REPO, path: 'as-commit', commit: MAIN },
      ] },
    });
    github.moveRef('giantswarm/agent-skills', 'main', MOVED);
    github.moveRef('giantswarm/agent-skills', 'v1.0', RETAGGED);
    try {
      const refreshed = await f.service.updateAgent(f.ctx(), { name: 'mixed', refreshSkills: true });
      expect(release('mixed').spec.values.skills!.gitRefs!.map((g) => [g.path, g.ref])).toEqual([
        ['branch', MOVED], ['tag', RETAGGED], ['as-ref', TAG], ['as-commit', MAIN],
      ]);
      expect(refreshed.agent.skills!.gitRefs!.map((g) => [g.name, g.ref, g.commit])).toEqual([
        ['branch', 'main', MOVED], ['tag', 'v1.0', RETAGGED], ['as-ref', TAG, TAG], ['as-commit', MAIN, MAIN],
      ]);
    } finally {
      github.moveRef('giantswarm/agent-skills', 'main', MAIN);
      github.moveRef('giantswarm/agent-skills', 'v1.0', TAG);
    }
  });

  it('resolves in a dry run and shows the pins, writing nothing', async () => {
    const result = await f.service.createAgent(f.ctx(), { ...BASE, name: 'dry', dryRun: true, skills: { gitRefs: [{ url: REPO, ref: 'v1.0' }] } });
    expect(result.dryRun).toBe(true);
    expect(result.manifests.values.skills).toEqual({ gitRefs: [{ url: REPO, ref: TAG, name: 'agent-skills' }] });
    expect(result.agent.skills).toEqual({ gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'v1.0', commit: TAG }] });
    expect(exists('dry')).toBe(false);
  });

  it('keeps the pins on an update without skills after the branch moved, and refreshSkills moves them', async () => {
    await f.service.createAgent(f.ctx(), { ...BASE, name: 'mover', skills: { gitRefs: [{ url: REPO, ref: 'main' }], refs: [`${skillImage}:1.4.0`] } });
    github.moveRef('giantswarm/agent-skills', 'main', MOVED);
    const { manifestDigest: newer } = await pushChart({ registryUrl: registry.url, repository: 'skills/runbooks', tag: '1.4.0', chart: { version: '1.4.1' } });
    try {
      const kept = await f.service.updateAgent(f.ctx(), { name: 'mover', description: 'unrelated' });
      expect(kept.changed).toEqual(['agent.description']);
      expect(release('mover').spec.values.skills).toEqual({ gitRefs: [{ url: REPO, ref: MAIN, name: 'agent-skills' }], refs: [`${skillImage}@${digest}`] });

      const refreshed = await f.service.updateAgent(f.ctx(), { name: 'mover', refreshSkills: true });
      expect(refreshed.changed).toEqual(['skills.gitRefs', 'skills.refs']);
      expect(release('mover').spec.values.skills).toEqual({ gitRefs: [{ url: REPO, ref: MOVED, name: 'agent-skills' }], refs: [`${skillImage}@${newer}`] });
      expect(refreshed.agent.skills).toEqual({
        gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'main', commit: MOVED }], refs: [{ ref: `${skillImage}:1.4.0`, digest: newer }],
      });

      // The revision that ran the first pins is brought back as it ran, not at today's heads.
      const rolled = await f.service.rollbackAgent(f.ctx(), { name: 'mover', revision: 1 });
      expect(rolled.changed).toEqual(['agent.description', 'skills.gitRefs', 'skills.refs']);
      expect(release('mover').spec.values.skills).toEqual({ gitRefs: [{ url: REPO, ref: MAIN, name: 'agent-skills' }], refs: [`${skillImage}@${digest}`] });
      expect(rolled.agent.skills).toEqual({
        gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'main', commit: MAIN }], refs: [{ ref: `${skillImage}:1.4.0`, digest }],
      });
      const detail = await f.service.getAgentRevision(f.ctx(), { name: 'mover', revision: 3 });
      expect(detail.diff).toEqual(['agent.description', 'skills.gitRefs', 'skills.refs']);
      expect(detail.skills).toEqual({
        gitRefs: [{ url: REPO, name: 'agent-skills', ref: 'main', commit: MOVED }], refs: [{ ref: `${skillImage}:1.4.0`, digest: newer }],
      });
      expect(revisionData('mover', 3).skillRefs).toEqual({
        gitRefs: [{ name: 'agent-skills', url: REPO, ref: 'main', commit: MOVED }], refs: [{ ref: `${skillImage}:1.4.0`, digest: newer }],
      });

      // With refreshSkills the rollback re-resolves what the revision asked for instead.
      await f.service.rollbackAgent(f.ctx(), { name: 'mover', revision: 1, refreshSkills: true });
      expect(release('mover').spec.values.skills).toEqual({ gitRefs: [{ url: REPO, ref: MOVED, name: 'agent-skills' }], refs: [`${skillImage}@${newer}`] });
    } finally {
      github.moveRef('giantswarm/agent-skills', 'main', MAIN);
      await pushChart({ registryUrl: registry.url, repository: 'skills/runbooks', tag: '1.4.0', chart: { version: '1.4.0' } });
    }
  });

  it('writes a changed ref asked for even when it pins to the same commit', async () => {
    await f.service.createAgent(f.ctx(), { ...BASE, name: 'retag', skills: { gitRefs: [{ url: REPO, ref: 'main' }] } });
    github.moveRef('giantswarm/agent-skills', 'v1.0', MAIN);
    try {
      await f.service.updateAgent(f.ctx(), { name: 'retag', skills: { gitRefs: [{ url: REPO, ref: 'v1.0' }] } });
      expect((await f.service.getAgent(f.ctx(), { name: 'retag' })).skills!.gitRefs).toEqual([{ url: REPO, name: 'agent-skills', ref: 'v1.0', commit: MAIN }]);
    } finally {
      github.moveRef('giantswarm/agent-skills', 'v1.0', TAG);
    }
  });

  it('reports the pins validate_agent would write, and an unresolvable skill as one of its errors', async () => {
    const ok = await f.service.validateAgent(f.ctx(), { mode: 'create', spec: { ...BASE, name: 'checked', skills: { refs: [`${skillImage}:1.4.0`] } } });
    expect(ok).toMatchObject({ valid: true, skills: { refs: [{ ref: `${skillImage}:1.4.0`, digest }] } });
    expect(ok.manifests.values.skills).toEqual({ refs: [`${skillImage}@${digest}`] });
    const bad = await f.service.validateAgent(f.ctx(), { mode: 'create', spec: { ...BASE, name: 'checked', skills: { gitRefs: [{ url: REPO, ref: 'nope' }] } } });
    expect(bad.valid).toBe(false);
    expect(bad.errors).toEqual([expect.stringMatching(/^skills\.gitRefs\[0\]: unresolvable skill reference: ref nope of https:\/\/github\.com\/giantswarm\/agent-skills could not be resolved/)]);
    const update = await f.service.validateAgent(f.ctx(), { mode: 'update', update: { name: 'pinned', refreshSkills: true } });
    expect(update).toMatchObject({ valid: true, mode: 'update' });
    expect(update.skills!.gitRefs![0]).toEqual({ url: REPO, path: 'runbooks', name: 'runbooks', ref: 'main', commit: MAIN });
    expect(exists('checked')).toBe(false);
  });
});

describe.skipIf(registryMode.mode === 'skip')('a skill that cannot be pinned', () => {
  it.each([
    ['a private repository without a token', { gitRefs: [{ url: 'https://github.com/giantswarm/private-skills', ref: 'main' }] },
      'invalid request: skills.gitRefs[0]: unresolvable skill reference: ref main of https://github.com/giantswarm/private-skills could not be resolved: GitHub answered 404 without a token — the repository is private or does not exist; a private skill repository needs the skills GitHub App installed on it (or a GITHUB_TOKEN that can read it)'],
    ['a ref that does not exist', { gitRefs: [{ url: REPO, path: 'x' }, { url: REPO, path: 'y', ref: 'gone' }] },
      'invalid request: skills.gitRefs[1]: unresolvable skill reference: ref gone of https://github.com/giantswarm/agent-skills could not be resolved: GitHub answered 422 — gone is not a branch, tag or commit of the repository'],
    ['a URL that is not a github.com repository', { gitRefs: [{ url: 'https://git.example.com/o/r', ref: 'main' }] },
      'invalid request: skills.gitRefs[0]: not a github.com repository URL: https://git.example.com/o/r (expected https://github.com/<owner>/<repo>)'],
    ['both ref and commit', { gitRefs: [{ url: REPO, path: 'runbooks', ref: 'main', commit: MAIN }] },
      `invalid request: skills.gitRefs[0] (runbooks) gives both ref "main" and commit "${MAIN}"; give the commit to pin, or the ref to have it resolved`],
    ['an OCI reference without a host', { refs: ['skills/runbooks:1.4.0'] },
      'invalid request: skills.refs[0]: OCI reference "skills/runbooks:1.4.0" must start with the registry host (e.g. registry.example.io/skills/runbooks:1.4.0)'],
    ['an OCI reference with a malformed digest', { refs: ['registry.example.io/skills/runbooks@sha256:1234'] },
      'invalid request: skills.refs[0]: OCI reference "registry.example.io/skills/runbooks@sha256:1234": digest must be sha256:<64 hex digits>'],
  ])('is refused with a 400 naming the skill, nothing written: %s', async (_case, skills, message) => {
    const err = await f.service.createAgent(f.ctx(), { ...BASE, name: 'refused', skills }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_request', message });
    expect(exists('refused')).toBe(false);
  });

  it('refuses an OCI tag the registry does not have (400)', async () => {
    const err = await f.service.createAgent(f.ctx(), { ...BASE, name: 'refused', skills: { refs: [`${skillImage}:9.9.9`] } }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'invalid_request',
      message: `invalid request: skills.refs[0]: unresolvable skill reference: tag 9.9.9 of ${skillImage} could not be resolved: the registry has no tag 9.9.9 there (HTTP 404)`,
    });
    expect(exists('refused')).toBe(false);
  });

  it('answers 502 backend_error when GitHub or the registry is unreachable, and writes nothing', async () => {
    const down = await startGitHubDouble({ repositories: {} });
    const gone = await startRegistry();
    const downUrl = down.url;
    const goneHost = gone.host;
    await down.close();
    await gone.close();
    const offline = startFakeServiceFixture({
      skillResolver: openSkillResolver({ github: { apiUrl: downUrl, retryBaseMs: 1 }, registry: {} }),
    });
    for (const skills of [{ gitRefs: [{ url: REPO, ref: 'main' }] }, { refs: [`${goneHost}/skills/runbooks:1.4.0`] }]) {
      const err = await offline.service.createAgent(offline.ctx(), { ...BASE, name: 'offline', skills }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'backend_error', status: 502 });
      expect((err as Error).message).toMatch(skills.refs ? /^skills\.refs\[0\]: resolving tag 1\.4\.0 of / : /^skills\.gitRefs\[0\]: resolving ref main of https:\/\/github\.com\/giantswarm\/agent-skills: /);
      expect(offline.kube.store.find('helmreleases', 'kagent', 'offline')).toBeUndefined();
    }
  });
});

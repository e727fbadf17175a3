import { describe, expect, it } from 'vitest';
import { buildValues2x, ociSkillName, skillsList } from './values-2x.js';

const COMMIT = 'a'.repeat(40);
const DIGEST = `sha256:${'b'.repeat(64)}`;
const settings = { harnessName: 'kagent' };

describe('2.x values', () => {
  it('always names the Harness: the requested one, else the installation\'s', () => {
    const minimal = buildValues2x({ name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] },
      settings);
    expect(minimal).toEqual({
      agent: { name: 'sre', harness: 'kagent' }, modelConfig: { name: 'default-model-config' },
      toolset: ['preset:none'],
    });
    expect(buildValues2x({ name: 'sre', modelConfig: 'm', harness: 'claude' }, settings).agent)
      .toEqual({ name: 'sre', harness: 'claude' });
  });

  it('writes pinned skills as the chart\'s list and plugins as given', () => {
    const values = buildValues2x({
      name: 'sre', modelConfig: 'm', toolset: ['preset:read-only'],
      skills: { gitRefs: [{ url: 'https://github.com/o/skills', path: 'k8s/', ref: COMMIT }],
        refs: [`registry.example.io/skills/runbooks@${DIGEST}`] },
      plugins: [{ git: { url: 'https://github.com/o/bundle', commit: COMMIT }, skills: ['triage'] }],
    }, settings);
    expect(values.skills).toEqual([
      { name: 'k8s', git: { url: 'https://github.com/o/skills', commit: COMMIT }, path: 'k8s/' },
      { name: 'runbooks', oci: `registry.example.io/skills/runbooks@${DIGEST}` },
    ]);
    expect(values.plugins).toEqual([{ git: { url: 'https://github.com/o/bundle', commit: COMMIT },
      skills: ['triage'] }]);
  });

  it('names the read credential only where a git skill or plugin needs it', () => {
    const withCredential = { ...settings, skillsGitAuthSecretName: 'skills-read' };
    const git = buildValues2x({ name: 'a', modelConfig: 'm',
      skills: { gitRefs: [{ url: 'https://github.com/o/r', commit: COMMIT }] } }, withCredential);
    expect(git.skillsGitAuthSecretRef).toEqual({ name: 'skills-read' });
    const oci = buildValues2x({ name: 'a', modelConfig: 'm',
      skills: { refs: [`r.example.io/s/x@${DIGEST}`] } }, withCredential);
    expect(oci.skillsGitAuthSecretRef).toBeUndefined();
    const own = buildValues2x({ name: 'a', modelConfig: 'm', gitAuthSecretName: 'mine',
      skills: { gitRefs: [{ url: 'https://github.com/o/r', commit: COMMIT }] } }, withCredential);
    expect(own.skillsGitAuthSecretRef).toEqual({ name: 'mine' });
  });

  it('writes muster.url from the installation, the target cluster\'s for a placed agent, and approval when asked', () => {
    expect(buildValues2x({ name: 'a', modelConfig: 'm', requireApproval: true },
      { ...settings, musterUrl: 'http://muster:8090/mcp' }).muster)
      .toEqual({ url: 'http://muster:8090/mcp', requireApproval: true });
    expect(buildValues2x({ name: 'a', modelConfig: 'm' },
      { ...settings, musterUrl: 'http://muster:8090/mcp', skillsGitAuthSecretName: 's',
        target: { musterUrl: 'https://muster.mgmt.example/mcp' } }).muster)
      .toEqual({ url: 'https://muster.mgmt.example/mcp' });
  });

  it('never writes runtime, which 2.x does not have', () => {
    expect(buildValues2x({ name: 'a', modelConfig: 'm', runtime: 'go' }, settings).agent).not.toHaveProperty('runtime');
  });

  it('names an OCI skill after the last segment of its repository', () => {
    expect(ociSkillName(`registry.example.io/skills/runbooks@${DIGEST}`)).toBe('runbooks');
    expect(skillsList(undefined)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { applyUpdate2x } from './update-2x.js';

const COMMIT = 'e'.repeat(40);
const settings = { harnessName: 'kagent', skillsGitAuthSecretName: 'skills-read' };
const base = {
  agent: { name: 'sre', harness: 'kagent', displayName: 'SRE' }, modelConfig: { name: 'm' },
  toolset: ['preset:read-only'], extraTools: [{ mcp: { server: { name: 'x' } } }], muster: { timeout: '5m' },
};

describe('2.x update merge', () => {
  it('changes the Harness and carries over what the request does not speak about', () => {
    const after = applyUpdate2x(base, { name: 'sre', harness: 'claude' }, settings);
    expect(after.agent).toEqual({ name: 'sre', harness: 'claude', displayName: 'SRE' });
    expect(after.extraTools).toEqual(base.extraTools);
    expect(after.muster).toEqual({ timeout: '5m' });
    expect(base.agent.harness).toBe('kagent');
  });

  it('sends a blank Harness back to the installation\'s, never to none', () => {
    const after = applyUpdate2x({ ...base, agent: { name: 'sre', harness: 'claude' } }, { name: 'sre', harness: ' ' },
      settings);
    expect((after.agent as { harness: string }).harness).toBe('kagent');
  });

  it('clears plugins with [] and approval with false, keeping muster\'s other keys', () => {
    const withBoth = { ...base, plugins: [{ oci: 'r.io/p@sha256:1', skills: ['a'] }],
      muster: { timeout: '5m', requireApproval: true } };
    const after = applyUpdate2x(withBoth, { name: 'sre', plugins: [], requireApproval: false }, settings);
    expect(after).not.toHaveProperty('plugins');
    expect(after.muster).toEqual({ timeout: '5m' });
  });

  it('adds the installation\'s credential with the first git skill and drops it with the last', () => {
    const withGit = applyUpdate2x(base, { name: 'sre',
      skills: { gitRefs: [{ url: 'https://github.com/o/r', commit: COMMIT }] } }, settings);
    expect(withGit.skillsGitAuthSecretRef).toEqual({ name: 'skills-read' });
    expect(withGit.skills).toEqual([{ name: 'r', git: { url: 'https://github.com/o/r', commit: COMMIT } }]);
    const without = applyUpdate2x(withGit, { name: 'sre', skills: {} }, settings);
    expect(without).not.toHaveProperty('skills');
    expect(without).not.toHaveProperty('skillsGitAuthSecretRef');
  });
});

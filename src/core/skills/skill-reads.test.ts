import { describe, expect, it } from 'vitest';
import { agentSkills, askedSkills } from './skill-reads.js';

const REPO = 'https://github.com/o/r';
const C1 = '1'.repeat(40);
const D1 = `sha256:${'d'.repeat(64)}`;
const known = { gitRefs: [{ name: 'a', url: REPO, ref: 'main', commit: C1 }, { name: 'b', url: REPO, commit: C1 }], refs: [{ ref: 'r.io/s/a:1.0', digest: D1 }] };
const values = {
  gitRefs: [{ url: REPO, path: 'a', ref: C1, name: 'a' }, { url: REPO, path: 'b', ref: C1, name: 'b' }, { url: REPO, path: 'c', ref: 'dev', name: 'c' }],
  refs: [`r.io/s/a@${D1}`, 'r.io/s/b:2'],
  gitAuthSecretRef: { name: 'git' },
};

describe('agentSkills', () => {
  it('reports each pin beside what was asked, and a pin nothing explains as written', () => {
    expect(agentSkills(values, known)).toEqual({
      gitRefs: [
        { url: REPO, path: 'a', name: 'a', ref: 'main', commit: C1 },
        { url: REPO, path: 'b', name: 'b', commit: C1 },
        { url: REPO, path: 'c', name: 'c', ref: 'dev' },
      ],
      refs: [{ ref: 'r.io/s/a:1.0', digest: D1 }, { ref: 'r.io/s/b:2' }],
      gitAuthSecretName: 'git',
    });
    expect(agentSkills(values)?.gitRefs?.[0]).toEqual({ url: REPO, path: 'a', name: 'a', ref: C1, commit: C1 });
    expect(agentSkills(values)?.refs?.[0]).toEqual({ ref: `r.io/s/a@${D1}`, digest: D1 });
  });

  it('says nothing for no skills', () => {
    expect(agentSkills(undefined)).toBeUndefined();
    expect(agentSkills({ refs: [], gitRefs: [] })).toBeUndefined();
  });
});

describe('askedSkills', () => {
  it('gives back the refs asked for (a commit where nothing says otherwise)', () => {
    expect(askedSkills(values, known)).toEqual({
      gitRefs: [{ url: REPO, path: 'a', name: 'a', ref: 'main' }, { url: REPO, path: 'b', name: 'b', ref: C1 }, { url: REPO, path: 'c', name: 'c', ref: 'dev' }],
      refs: ['r.io/s/a:1.0', 'r.io/s/b:2'],
      gitAuthSecretName: 'git',
    });
  });
});

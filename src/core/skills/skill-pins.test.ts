import { describe, expect, it } from 'vitest';
import { applyPins, lookupKey, lookupsOf, MAX_PIN_LOOKUPS, parseSkillRefs, planPins, skillRefsText, tooManyLookups, type PinLookup } from './skill-pins.js';
import type { SkillsSpec } from '../types.js';

const REPO = 'https://github.com/o/r';
const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);
const C3 = '3'.repeat(40);
const D1 = `sha256:${'d'.repeat(64)}`;
const D2 = `sha256:${'e'.repeat(64)}`;

/** Plan, answer every lookup from `answers`, apply. */
function pin(skills: SkillsSpec, answers: (lookup: PinLookup) => string, options: Parameters<typeof planPins>[1] = {}) {
  const plan = planPins(skills, options);
  return applyPins(skills, plan, new Map(lookupsOf(plan).map((l) => [lookupKey(l), answers(l)])));
}

describe('planPins', () => {
  it('looks up a branch, a tag, the default branch and an OCI tag (none: latest), once per distinct lookup', () => {
    const plan = planPins({
      gitRefs: [{ url: REPO, path: 'a', ref: 'main' }, { url: REPO, path: 'b', ref: 'main' }, { url: REPO, path: 'c' }],
      refs: ['r.io/s/a:1.0', 'r.io/s/b'],
    });
    expect(lookupsOf(plan)).toEqual([
      { kind: 'git', url: REPO, ref: 'main' },
      { kind: 'git', url: REPO },
      { kind: 'oci', reference: { registry: 'r.io', repository: 's/a', tag: '1.0' } },
      { kind: 'oci', reference: { registry: 'r.io', repository: 's/b', tag: 'latest' } },
    ]);
  });

  it('keeps full commits and digests without a lookup', () => {
    const plan = planPins({ gitRefs: [{ url: REPO, ref: C1.toUpperCase() }, { url: REPO, path: 'x', commit: C2 }], refs: [`r.io/s/a:1@${D1}`] });
    expect(lookupsOf(plan)).toEqual([]);
    expect(applyPins({ gitRefs: [{ url: REPO, ref: C1.toUpperCase() }, { url: REPO, path: 'x', commit: C2 }], refs: [`r.io/s/a:1@${D1}`] }, plan, new Map())).toEqual({
      skills: { gitRefs: [{ url: REPO, ref: C1 }, { url: REPO, path: 'x', ref: C2 }], refs: [`r.io/s/a@${D1}`] },
      refs: { gitRefs: [{ name: 'r', url: REPO, ref: C1.toUpperCase(), commit: C1 }, { name: 'x', url: REPO, ref: C2, commit: C2 }], refs: [{ ref: `r.io/s/a:1@${D1}`, digest: D1 }] },
    });
  });

  it('recovers what an earlier write asked for from its record, and refresh follows it', () => {
    const known = { gitRefs: [{ name: 'r', url: REPO, ref: 'main', commit: C1 }], refs: [{ ref: 'r.io/s/a:1.0', digest: D1 }] };
    const pinned: SkillsSpec = { gitRefs: [{ url: REPO, ref: C1, name: 'r' }], refs: [`r.io/s/a@${D1}`] };
    expect(pin(pinned, () => 'unused', { known })).toEqual({ skills: pinned, refs: known });
    const refreshed = pin(pinned, (l) => (l.kind === 'git' ? C2 : D2), { known, refresh: true });
    expect(refreshed.skills).toEqual({ gitRefs: [{ url: REPO, ref: C2, name: 'r' }], refs: [`r.io/s/a@${D2}`] });
    expect(refreshed.refs).toEqual({ gitRefs: [{ name: 'r', url: REPO, ref: 'main', commit: C2 }], refs: [{ ref: 'r.io/s/a:1.0', digest: D2 }] });
  });

  it('keeps a default-branch skill recorded as one when it comes back pinned', () => {
    const known = { gitRefs: [{ name: 'r', url: REPO, commit: C1 }] };
    expect(pin({ gitRefs: [{ url: REPO, ref: C1 }] }, () => 'unused', { known }).refs).toEqual(known);
    expect(lookupsOf(planPins({ gitRefs: [{ url: REPO, ref: C1 }] }, { known, refresh: true }))).toEqual([{ kind: 'git', url: REPO }]);
  });

  it('leaves a commit and a digest nothing explains alone on refresh: what was asked is that pin', () => {
    const plan = planPins({ gitRefs: [{ url: REPO, ref: C1 }], refs: [`r.io/s/a@${D1}`] }, { refresh: true });
    expect(lookupsOf(plan)).toEqual([]);
    const kept = { gitRefs: [{ url: REPO, ref: C1 }] };
    expect(applyPins(kept, plan, new Map()).skills).toEqual(kept);
  });

  it('keeps a commit asked for on refresh, while a branch moves to its head and a tag to its commit', () => {
    const known = {
      gitRefs: [
        { name: 'a', url: REPO, ref: 'main', commit: C1 }, { name: 'b', url: REPO, ref: 'v1.0', commit: C1 },
        { name: 'c', url: REPO, ref: C1, commit: C1 }, { name: 'd', url: REPO, commit: C1 },
      ],
    };
    const live: SkillsSpec = { gitRefs: ['a', 'b', 'c', 'd'].map((path) => ({ url: REPO, path, ref: C1 })) };
    const heads: Record<string, string> = { main: C2, 'v1.0': C3, '': C3 };
    const refreshed = pin(live, (l) => (l.kind === 'git' ? heads[l.ref ?? '']! : D2), { known, refresh: true });
    expect(refreshed.skills!.gitRefs!.map((g) => g.ref)).toEqual([C2, C3, C1, C3]);
    expect(refreshed.refs.gitRefs!.map((g) => [g.ref, g.commit])).toEqual([['main', C2], ['v1.0', C3], [C1, C1], [undefined, C3]]);
  });

  it('records a commit given as commit as what was asked, so a later refresh keeps it', () => {
    const first = pin({ gitRefs: [{ url: REPO, commit: C1 }] }, () => 'unused');
    expect(first.refs).toEqual({ gitRefs: [{ name: 'r', url: REPO, ref: C1, commit: C1 }] });
    const plan = planPins({ gitRefs: [{ url: REPO, ref: C1 }] }, { known: first.refs, refresh: true });
    expect(lookupsOf(plan)).toEqual([]);
  });

  it('ignores a record entry for another repository or mount name', () => {
    const known = { gitRefs: [{ name: 'other', url: REPO, ref: 'main', commit: C1 }], refs: [{ ref: 'x.io/s/a:1.0', digest: D1 }] };
    const out = pin({ gitRefs: [{ url: REPO, ref: C1 }], refs: [`r.io/s/a@${D1}`] }, () => 'unused', { known });
    expect(out.refs).toEqual({ gitRefs: [{ name: 'r', url: REPO, ref: C1, commit: C1 }], refs: [{ ref: `r.io/s/a@${D1}`, digest: D1 }] });
  });
});

describe('tooManyLookups', () => {
  it('refuses a plan of more distinct lookups than one write makes, counting repeats once', () => {
    const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ url: REPO, path: `p${i}`, ref: `b${i}` }));
    expect(tooManyLookups(planPins({ gitRefs: refs(MAX_PIN_LOOKUPS) }))).toBeUndefined();
    expect(tooManyLookups(planPins({ gitRefs: [...refs(MAX_PIN_LOOKUPS), { url: REPO, path: 'again', ref: 'b0' }] }))).toBeUndefined();
    expect(tooManyLookups(planPins({ gitRefs: refs(MAX_PIN_LOOKUPS + 1) }))).toBe(
      'skills need 51 lookups to be pinned, more than the 50 one write makes; give some of them pinned (a commit, or an OCI reference with @sha256:<digest>)',
    );
  });
});

describe('the skill-refs annotation', () => {
  it('round-trips, and is absent when nothing was pinned', () => {
    const refs = { gitRefs: [{ name: 'r', url: REPO, ref: 'main', commit: C1 }], refs: [{ ref: 'r.io/s/a:1.0', digest: D1 }] };
    expect(parseSkillRefs(skillRefsText(refs))).toEqual(refs);
    expect(skillRefsText({})).toBeUndefined();
  });

  it.each([
    ['not JSON', '{'],
    ['a list', '[]'],
    ['entries of the wrong shape', JSON.stringify({ gitRefs: [{ name: 'r', url: REPO, commit: 'short' }, 7], refs: [{ ref: 'a', digest: 'sha256:x' }] })],
  ])('drops what is malformed: %s', (_case, text) => {
    expect(parseSkillRefs(text)).toEqual({});
  });
});

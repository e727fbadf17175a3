import { describe, expect, it } from 'vitest';
import { parseSkillOci, pinnedOci } from './skill-oci.js';

const D = `sha256:${'a'.repeat(64)}`;

describe('parseSkillOci', () => {
  it.each([
    ['registry.example.io/skills/runbooks:1.4.0', { registry: 'registry.example.io', repository: 'skills/runbooks', tag: '1.4.0' }],
    ['registry.example.io/skills/runbooks', { registry: 'registry.example.io', repository: 'skills/runbooks' }],
    [`registry.example.io/skills/runbooks@${D}`, { registry: 'registry.example.io', repository: 'skills/runbooks', digest: D }],
    [`registry.example.io/skills/runbooks:1.4.0@${D}`, { registry: 'registry.example.io', repository: 'skills/runbooks', tag: '1.4.0', digest: D }],
    ['127.0.0.1:5000/a:latest', { registry: '127.0.0.1:5000', repository: 'a', tag: 'latest' }],
    ['localhost/a/b_c', { registry: 'localhost', repository: 'a/b_c' }],
  ])('reads %s', (text, parts) => {
    expect(parseSkillOci(text)).toEqual(parts);
  });

  it.each([
    ['skills/runbooks:1.4.0', 'OCI reference "skills/runbooks:1.4.0" must start with the registry host (e.g. registry.example.io/skills/runbooks:1.4.0)'],
    ['runbooks', 'OCI reference "runbooks" must start with the registry host (e.g. registry.example.io/skills/runbooks:1.4.0)'],
    ['registry.example.io/a@sha256:abc', 'OCI reference "registry.example.io/a@sha256:abc": digest must be sha256:<64 hex digits>'],
    [`registry.example.io/a@sha512:${'a'.repeat(128)}`, `OCI reference "registry.example.io/a@sha512:${'a'.repeat(128)}": digest must be sha256:<64 hex digits>`],
    ['registry.example.io', 'OCI reference "registry.example.io" has no repository'],
    ['registry.example.io/:1', 'OCI reference "registry.example.io/:1" has no repository'],
    ['registry.example.io/Skills/A:1', 'OCI reference "registry.example.io/Skills/A:1": repository "Skills/A" must be lowercase path components (letters, digits and single separators ".", "_", "-")'],
    ['registry.example.io/a:-bad', 'OCI reference "registry.example.io/a:-bad": tag "-bad" must be letters, digits, "_", "." and "-" (at most 128, not starting with "." or "-")'],
  ])('refuses %s', (text, error) => {
    expect(parseSkillOci(text)).toEqual({ error });
  });

  it('writes the digest-pinned form without the tag', () => {
    expect(pinnedOci({ registry: 'r.io', repository: 'a/b' }, D)).toBe(`r.io/a/b@${D}`);
  });
});

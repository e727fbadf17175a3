import { describe, expect, it } from 'vitest';
import { callerFromClaims } from './claims.js';

describe('callerFromClaims', () => {
  it.each([
    ['a Dex id_token', { sub: 's', email: 'a@x', name: 'A', groups: ['g1', 'g2'] }, { subject: 's', email: 'a@x', name: 'A', groups: ['g1', 'g2'], source: 'sso' }],
    ['no groups claim', { sub: 's' }, { subject: 's', groups: [], source: 'sso' }],
    ['groups that are not an array', { sub: 's', groups: 'admins' }, { subject: 's', groups: [], source: 'sso' }],
    ['groups with non-strings', { sub: 's', groups: ['g', 1, null, ''] }, { subject: 's', groups: ['g'], source: 'sso' }],
    ['an empty email', { sub: 's', email: '' }, { subject: 's', groups: [], source: 'sso' }],
  ])('maps %s', (_name, claims, caller) => {
    expect(callerFromClaims(claims)).toEqual(caller);
  });

  it('refuses a token without a subject', () => {
    expect(() => callerFromClaims({ email: 'a@x' })).toThrow('unauthenticated: token has no subject (sub)');
  });
});

/**
 * The caller a verified id_token names. Only called with a payload whose signature,
 * issuer, audience and lifetime were verified; the claims are then trusted as the
 * identity provider's statement about the person.
 */
import type { JWTPayload } from 'jose';
import { unauthenticated } from '../core/errors.js';
import type { Caller } from './caller.js';

/** Map verified id_token claims to the caller (`sub`, `email`, `name`, `groups`; source `sso`). */
export function callerFromClaims(payload: JWTPayload): Caller {
  const subject = payload.sub;
  if (typeof subject !== 'string' || subject === '') {
    throw unauthenticated('token has no subject (sub); the identity provider must name the person');
  }
  const caller: Caller = { subject, groups: groupsOf(payload['groups']), source: 'sso' };
  const email = payload['email'];
  if (typeof email === 'string' && email !== '') caller.email = email;
  const name = payload['name'];
  if (typeof name === 'string' && name !== '') caller.name = name;
  return caller;
}

/** The `groups` claim as strings: Dex sends an array; anything else names no group. */
function groupsOf(claim: unknown): string[] {
  if (!Array.isArray(claim)) return [];
  return claim.filter((g): g is string => typeof g === 'string' && g !== '');
}

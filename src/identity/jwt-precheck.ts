/**
 * What can be said about a bearer before any key is fetched: its size, that it is a compact JWS, its
 * algorithm and key id, and whether its unverified audience is trusted. It only refuses early and
 * cheaply, naming the problem (the token's `aud` beside the trusted ones, as muster shows it); the
 * signature and claims are verified in token-verifier.ts. Every text may be shown to the caller: it
 * repeats only the caller's own token's values, clipped to printable ASCII.
 */
import { decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { unauthenticated } from '../core/errors.js';

/** Signature algorithms an id_token may use: asymmetric only (no HS*, no `none`). */
export const ALLOWED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384',
  'ES512'] as const;

/** The largest bearer accepted, in bytes. Dex tokens with many groups reach a few KiB. */
export const MAX_TOKEN_BYTES = 16 * 1024;

/** Leeway for `exp`, `nbf` and `iat`, in seconds. */
export const CLOCK_TOLERANCE_SECONDS = 30;

/** A token that passed the pre-checks, with its unverified parts. */
export interface PrecheckedToken {
  header: ProtectedHeaderParameters & { alg: string; kid: string };
  payload: JWTPayload;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Refuse what is certainly not an acceptable id_token, before any key is fetched.
 * Throws `AppError('unauthenticated')` with a description safe to show.
 */
export function precheckToken(bearer: string, trustedAudiences: readonly string[]): PrecheckedToken {
  if (bearer.length > MAX_TOKEN_BYTES) {
    throw unauthenticated(`token is too large (${bearer.length} bytes; the limit is ${MAX_TOKEN_BYTES})`);
  }
  if (!COMPACT_JWS.test(bearer)) {
    throw unauthenticated('token is not a JWT (want an id_token: three base64url parts separated by dots)');
  }
  let header: ProtectedHeaderParameters;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(bearer);
  } catch {
    throw unauthenticated('token is not a JWT (its header is not base64url-encoded JSON)');
  }
  try {
    payload = decodeJwt(bearer);
  } catch {
    throw unauthenticated('token is not a JWT (its payload is not base64url-encoded JSON)');
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || !ALLOWED_ALGORITHMS.some((allowed) => allowed === alg)) {
    throw unauthenticated(
      `token algorithm ${quoteSafe(String(alg))} is not allowed (want one of ${ALLOWED_ALGORITHMS.join(', ')})`,
    );
  }
  const kid = header.kid;
  if (typeof kid !== 'string' || kid === '') {
    throw unauthenticated('token header has no key id (kid); the identity provider signs id_tokens with one');
  }
  checkAudience(payload.aud, trustedAudiences);
  return { header: { ...header, alg, kid }, payload };
}

/** The token's audiences as a list (`aud` is a string or an array of strings). */
export function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return [];
}

function checkAudience(aud: unknown, trusted: readonly string[]): void {
  const audiences = audiencesOf(aud);
  if (audiences.length === 0) {
    throw unauthenticated(
      `token has no audience (aud); want one of the trusted audiences ${listSafe(trusted)} (--oauth-trusted-audiences)`,
    );
  }
  if (!audiences.some((a) => trusted.includes(a))) {
    throw unauthenticated(audienceMismatch(audiences, trusted));
  }
}

/** The refusal text for a token whose audience is not trusted. */
export function audienceMismatch(audiences: readonly string[], trusted: readonly string[]): string {
  return `token audience ${listSafe(audiences)} matches none of the trusted audiences ${listSafe(trusted)} ` +
    `(--oauth-trusted-audiences)`;
}

const MAX_SHOWN_VALUES = 10;
const MAX_SHOWN_LENGTH = 120;

/** A value from a token, reduced to printable ASCII and clipped, for error texts. */
export function safeText(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > MAX_SHOWN_LENGTH ? `${printable.slice(0, MAX_SHOWN_LENGTH)}…` : printable;
}

function quoteSafe(value: string): string {
  return `"${safeText(value)}"`;
}

/** `[a, b]`, clipped to a few entries. */
export function listSafe(values: readonly string[]): string {
  const shown = values.slice(0, MAX_SHOWN_VALUES).map(safeText);
  if (values.length > MAX_SHOWN_VALUES) shown.push(`… ${values.length - MAX_SHOWN_VALUES} more`);
  return `[${shown.join(', ')}]`;
}

/**
 * OIDC id_token authentication with kube-apiserver's `--oidc-*` semantics: a bearer whose `iss` is the
 * configured issuer is verified against its discovery document and JWKS (trusting `--oidc-ca-file` too),
 * must carry the client id in `aud`, a future `exp` and an allowed algorithm (RS256 by default); the
 * username and groups claims, the `<issuer>#` prefix and the `email_verified` rule are the apiserver's.
 * Trust boundary: every refusal is a bare 401, never why; the reason goes to the debug log, without the token.
 */
import { createRemoteJWKSet, customFetch, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyResult,
  type RemoteJWKSet } from 'jose';
import { isStringList } from '../api/json.js';
import type { UserInfo } from '../ops/op-options.js';
import type { Authenticator } from './authenticator.js';
import { discoverJwksUri, issuerFetch, type IssuerFetch } from './issuer-fetch.js';

/** The OIDC settings, as kube-apiserver's flags name them. */
export interface OidcAuthenticatorConfig {
  /** `--oidc-issuer-url`: tokens must carry exactly this `iss`. */
  readonly issuerUrl: string;
  /** `--oidc-client-id`: `aud` must contain it. */
  readonly clientId: string;
  /** `--oidc-username-claim`, default `sub`. */
  readonly usernameClaim?: string;
  /** `--oidc-username-prefix`: empty means `<issuer>#` for claims other than email; `-` means none. */
  readonly usernamePrefix?: string;
  /** `--oidc-groups-claim`; empty reads no groups. */
  readonly groupsClaim?: string;
  /** `--oidc-groups-prefix`, prepended to every group. */
  readonly groupsPrefix?: string;
  /** PEM of `--oidc-ca-file`, trusted besides the public roots. */
  readonly caPem?: string;
  /** `--oidc-signing-algs`, default RS256. */
  readonly signingAlgs?: readonly string[];
}

/** Where refusals are reported (debug level; never the token). */
export interface OidcLog {
  debug(obj: object, msg?: string): void;
}

/** Seams for tests. */
export interface OidcDeps {
  fetch?: IssuerFetch;
  log?: OidcLog;
}

/** Why a token was not accepted (kept out of responses). */
class OidcRefusal extends Error {}

/** The username prefix kube-apiserver applies for a configuration. */
export function usernamePrefixFor(config: OidcAuthenticatorConfig): string {
  const prefix = config.usernamePrefix ?? '';
  if (prefix === '-') return '';
  if (prefix !== '') return prefix;
  return (config.usernameClaim ?? 'sub') === 'email' ? '' : `${config.issuerUrl}#`;
}

/** Turn verified claims into a user, or throw OidcRefusal. */
export function userFromClaims(config: OidcAuthenticatorConfig, claims: JWTPayload): UserInfo {
  const claim = config.usernameClaim || 'sub';
  const name = claims[claim];
  if (typeof name !== 'string' || name === '') {
    throw new OidcRefusal(`claim ${JSON.stringify(claim)} is not a non-empty string`);
  }
  if (claim === 'email' && 'email_verified' in claims && claims.email_verified !== true) {
    throw new OidcRefusal('email not verified');
  }
  let groups: string[] = [];
  if (config.groupsClaim && config.groupsClaim in claims) {
    const value = claims[config.groupsClaim];
    if (typeof value === 'string') groups = [value];
    else if (isStringList(value)) groups = value;
    else throw new OidcRefusal(`groups claim ${JSON.stringify(config.groupsClaim)} is not a string or ` +
      `a list of strings`);
  }
  const groupsPrefix = config.groupsPrefix ?? '';
  return { username: `${usernamePrefixFor(config)}${name}`, groups: groups.map((g) => `${groupsPrefix}${g}`) };
}

/** An Authenticator for one OIDC issuer. */
export class OidcAuthenticator implements Authenticator {
  private readonly fetchImpl: IssuerFetch;
  private jwks?: Promise<RemoteJWKSet>;

  constructor(private readonly config: OidcAuthenticatorConfig, private readonly deps: OidcDeps = {}) {
    if (!URL.canParse(config.issuerUrl)) throw new Error(`--oidc-issuer-url "${config.issuerUrl}" is not a URL`);
    if (!config.clientId) throw new Error('--oidc-client-id is required with --oidc-issuer-url');
    // The issuer is the operator's own choice (often on loopback in a lab): any address is reachable.
    this.fetchImpl = deps.fetch ?? issuerFetch(config.caPem);
  }

  async authenticate(token: string): Promise<UserInfo | undefined> {
    let unverifiedIssuer: unknown;
    try {
      unverifiedIssuer = decodeJwt(token).iss;
    } catch {
      return undefined; // not a JWT: another authenticator's token, or garbage
    }
    if (unverifiedIssuer !== this.config.issuerUrl) return undefined;
    try {
      const { payload } = await this.verify(token);
      return userFromClaims(this.config, payload);
    } catch (err) {
      this.deps.log?.debug({ issuer: this.config.issuerUrl, reason: err instanceof Error ? err.message : String(err) },
        'sandbox: OIDC token refused');
      return undefined;
    }
  }

  private async verify(token: string): Promise<JWTVerifyResult> {
    const jwks = await this.keySet();
    const options = {
      issuer: this.config.issuerUrl,
      audience: this.config.clientId,
      algorithms: [...(this.config.signingAlgs ?? ['RS256'])],
      requiredClaims: ['exp'],
    };
    try {
      return await jwtVerify(token, jwks, options);
    } catch (err) {
      if (!(err instanceof errors.JWKSMultipleMatchingKeys)) throw err;
      let last: unknown = err;
      for await (const key of err) {
        try {
          return await jwtVerify(token, key, options);
        } catch (inner) {
          last = inner;
        }
      }
      throw last;
    }
  }

  /** Discovery once; a failure is forgotten so the next token tries again. */
  private keySet(): Promise<RemoteJWKSet> {
    if (!this.jwks) {
      this.jwks = discoverJwksUri(this.config.issuerUrl, this.fetchImpl).then(
        (jwksUri) => createRemoteJWKSet(jwksUri, {
          cooldownDuration: 10_000,
          timeoutDuration: 5_000,
          [customFetch]: (url, init) => this.fetchImpl(url, init),
        }),
        (err: unknown) => {
          this.jwks = undefined;
          throw err;
        },
      );
    }
    return this.jwks;
  }
}

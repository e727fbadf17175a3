/**
 * OpenID Connect discovery of the identity provider: `<issuer>/.well-known/openid-configuration`
 * gives the `jwks_uri` whose keys sign the id_tokens we accept. The document must name
 * exactly the configured issuer (OIDC Discovery 1.0 section 4.3), otherwise a
 * misconfigured URL could make us trust another issuer's keys.
 */
import { asObject } from '../core/json.js';
import { refuseUrl } from './address-guard.js';
import { IdpFetchError, type IdpFetch } from './idp-fetch.js';

/** What the verifier needs from the discovery document. */
export interface DiscoveredIssuer {
  issuer: string;
  jwksUri: URL;
}

/** The discovery URL of an issuer: the well-known suffix appended to its path. */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/**
 * Fetch and check the discovery document. Throws `IdpFetchError` (the provider's
 * problem or a configuration problem, never the caller's) with a text that says what to fix.
 */
export async function discoverIssuer(
  issuer: string, fetchImpl: IdpFetch, allowPrivate: boolean,
): Promise<DiscoveredIssuer> {
  const url = discoveryUrl(issuer);
  const res = await fetchImpl(url);
  if (res.status !== 200) {
    throw new IdpFetchError(`OIDC discovery at ${url} answered HTTP ${res.status}; check the issuer URL`);
  }
  let doc: unknown;
  try {
    doc = await res.json();
  } catch {
    throw new IdpFetchError(`OIDC discovery at ${url} did not answer JSON`);
  }
  if (typeof doc !== 'object' || doc === null) {
    throw new IdpFetchError(`OIDC discovery at ${url} did not answer a JSON object`);
  }
  const { issuer: named, jwks_uri: jwksUri } = asObject(doc);
  if (named !== issuer) {
    throw new IdpFetchError(
      `OIDC discovery at ${url} names the issuer ${JSON.stringify(named)}, not ${JSON.stringify(issuer)}; ` +
        'the configured issuer URL must be exactly the provider\'s issuer (including any trailing slash)',
    );
  }
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) {
    throw new IdpFetchError(`OIDC discovery at ${url} has no valid jwks_uri`);
  }
  const jwks = new URL(jwksUri);
  const refused = refuseUrl(jwks, allowPrivate);
  if (refused) throw new IdpFetchError(`refusing the jwks_uri of ${url}: ${refused}`);
  return { issuer, jwksUri: jwks };
}

/**
 * From the `--enable-oauth` flags to what the token verifier trusts, decided in one place: the issuer
 * (`--dex-issuer-url` with `--dex-ca-file`, or Google with public roots), the audiences
 * (`--oauth-trusted-audiences`, else the provider's client id), and private addresses, allowed for both
 * issuer and key set when either `--allow-private-oauth-urls` or `--sso-allow-private-ips` is set: one
 * guarded client fetches both, and trusting one inside the cluster trusts the provider there.
 */
import type { OAuthEnabledConfig } from '../config/index.js';
import type { OAuthVerifierConfig } from './token-verifier.js';

/** The verifier configuration for an enabled OAuth slice. */
export function verifierConfigFrom(oauth: OAuthEnabledConfig): OAuthVerifierConfig {
  const { provider } = oauth;
  const trustedAudiences = oauth.trustedAudiences.length > 0 ? [...oauth.trustedAudiences] : [provider.clientId];
  if (provider.name === 'dex') {
    return {
      provider: 'dex',
      issuerUrl: provider.issuerUrl,
      caFile: provider.caFile || undefined,
      allowPrivateUrls: provider.allowPrivateUrls || oauth.ssoAllowPrivateIps,
      trustedAudiences,
      clientId: provider.clientId,
    };
  }
  return {
    provider: 'google',
    allowPrivateUrls: oauth.ssoAllowPrivateIps,
    trustedAudiences,
    clientId: provider.clientId,
  };
}

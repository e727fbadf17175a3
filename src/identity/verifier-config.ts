/**
 * From the parsed `--enable-oauth` slice to what the token verifier is built with: the
 * one place that decides which issuer, CA and audiences the resource server trusts.
 *
 * - dex: the issuer is `--dex-issuer-url`, `--dex-ca-file` is trusted for its TLS;
 * - google: the issuer is `https://accounts.google.com` (public roots only);
 * - the trusted audiences are `--oauth-trusted-audiences`, or, when that list is empty,
 *   the provider's client id (the token a person gets when signing in through our own
 *   client);
 * - private or loopback addresses for the issuer and its key set are allowed when
 *   either `--allow-private-oauth-urls` (the issuer) or `--sso-allow-private-ips` (the
 *   key set) is set: our verifier fetches both through one guarded client, and an
 *   operator who trusts one of them inside the cluster trusts the provider there.
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

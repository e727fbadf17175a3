/**
 * The OAuth cross-field rules, with the Go service's exact texts (inventory 10). We are
 * only a resource server: with Dex the issuer URL is what bearer tokens are checked
 * against, so it is always required; the client ID and secret stay required too, because
 * the chart passes them and the original refused a half-configured provider.
 */
import type { OAuthConfig } from './app-config.js';
import { ConfigError } from './resolve.js';
import { isLoopbackHost } from './values.js';

/** The flag values the OAuth rules read. */
export interface OAuthInput {
  readonly enabled: boolean;
  readonly downstream: boolean;
  readonly baseUrl: string;
  readonly provider: string;
  readonly dexIssuerUrl: string;
  readonly dexClientId: string;
  readonly dexClientSecret: string;
  readonly dexCaFile: string;
  readonly allowPrivateOAuthUrls: boolean;
  readonly googleClientId: string;
  readonly googleClientSecret: string;
  readonly trustedAudiences: readonly string[];
  readonly ssoAllowPrivateIps: boolean;
  readonly allowPublicClientRegistration: boolean;
}

/** Check the OAuth rules in the original's order and build the slice. Throws ConfigError. */
export function buildOAuthConfig(input: OAuthInput): OAuthConfig {
  if (input.downstream && !input.enabled) {
    throw new ConfigError('--downstream-oauth needs --enable-oauth: without OAuth there is no caller token to present to the Kubernetes API');
  }
  if (!input.enabled) return { enabled: false };
  if (input.baseUrl === '') throw new ConfigError('oauth: base URL is required');
  checkBaseUrl(input.baseUrl);
  // An empty provider means dex, as in the original.
  const providerName = input.provider === '' ? 'dex' : input.provider;
  let provider: Extract<OAuthConfig, { enabled: true }>['provider'];
  if (providerName === 'dex') {
    if (input.dexIssuerUrl === '' || input.dexClientId === '' || input.dexClientSecret === '') {
      throw new ConfigError('oauth: dex issuer URL, client ID and client secret are required');
    }
    provider = {
      name: 'dex', issuerUrl: input.dexIssuerUrl, clientId: input.dexClientId, clientSecret: input.dexClientSecret,
      caFile: input.dexCaFile, allowPrivateUrls: input.allowPrivateOAuthUrls,
    };
  } else if (providerName === 'google') {
    if (input.googleClientId === '' || input.googleClientSecret === '') {
      throw new ConfigError('oauth: google client ID and client secret are required');
    }
    provider = { name: 'google', clientId: input.googleClientId, clientSecret: input.googleClientSecret };
  } else {
    throw new ConfigError(`oauth: provider ${JSON.stringify(input.provider)}: want dex or google`);
  }
  // The list parser already drops empty items; this guards other callers of this function.
  if (input.trustedAudiences.some((a) => a.trim() === '')) {
    throw new ConfigError('oauth: trusted audiences must not be empty strings');
  }
  return {
    enabled: true,
    baseUrl: input.baseUrl,
    provider,
    trustedAudiences: input.trustedAudiences,
    ssoAllowPrivateIps: input.ssoAllowPrivateIps,
    allowPublicClientRegistration: input.allowPublicClientRegistration,
    downstream: input.downstream,
  };
}

/** https anywhere; http only on localhost, 127.0.0.1 or ::1. */
function checkBaseUrl(u: string): void {
  let url: URL | undefined;
  try {
    url = new URL(u);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    throw new ConfigError(`oauth: base URL scheme must be http or https: ${u}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(`oauth: base URL must use https (http is allowed for loopback only): ${u}`);
  }
}

import { ConfigError } from './resolve.js';
import { isLoopbackHost } from './values.js';
/** The bearer tokens' audience must come from somewhere. */
const AUDIENCE_HINT = 'when --oauth-trusted-audiences is empty: it is the audience bearer tokens must carry';
/** Check the OAuth rules and build the slice. Throws ConfigError. */
export function buildOAuthConfig(input) {
    if (input.downstream && !input.enabled) {
        throw new ConfigError('--downstream-oauth needs --enable-oauth: without OAuth there is no caller token to ' +
            'present to the Kubernetes API');
    }
    if (!input.enabled)
        return { enabled: false };
    if (input.baseUrl === '')
        throw new ConfigError('oauth: base URL is required');
    checkBaseUrl(input.baseUrl);
    // An empty provider means dex, the default identity provider.
    const providerName = input.provider === '' ? 'dex' : input.provider;
    // The list parser already drops empty items; this guards other callers of this function.
    if (input.trustedAudiences.some((a) => a.trim() === '')) {
        throw new ConfigError('oauth: trusted audiences must not be empty strings');
    }
    const audienceFromClient = input.trustedAudiences.length === 0;
    let provider;
    if (providerName === 'dex') {
        if (input.dexIssuerUrl === '')
            throw new ConfigError('oauth: dex issuer URL is required');
        if (audienceFromClient && input.dexClientId === '') {
            throw new ConfigError(`oauth: dex client ID is required ${AUDIENCE_HINT}`);
        }
        provider = {
            name: 'dex', issuerUrl: input.dexIssuerUrl, clientId: input.dexClientId,
            caFile: input.dexCaFile, allowPrivateUrls: input.allowPrivateOAuthUrls,
        };
    }
    else if (providerName === 'google') {
        if (audienceFromClient && input.googleClientId === '') {
            throw new ConfigError(`oauth: google client ID is required ${AUDIENCE_HINT}`);
        }
        provider = { name: 'google', clientId: input.googleClientId };
    }
    else {
        throw new ConfigError(`oauth: provider ${JSON.stringify(input.provider)}: want dex or google`);
    }
    return {
        enabled: true,
        baseUrl: input.baseUrl,
        provider,
        trustedAudiences: input.trustedAudiences,
        ssoAllowPrivateIps: input.ssoAllowPrivateIps,
        downstream: input.downstream,
    };
}
/** https anywhere; http only on localhost, 127.0.0.1 or ::1. */
function checkBaseUrl(u) {
    let url;
    try {
        url = new URL(u);
    }
    catch {
        url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
        throw new ConfigError(`oauth: base URL scheme must be http or https: ${u}`);
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        throw new ConfigError(`oauth: base URL must use https (http is allowed for loopback only): ${u}`);
    }
}
//# sourceMappingURL=oauth-config.js.map
/** The verifier configuration for an enabled OAuth slice. */
export function verifierConfigFrom(oauth) {
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
//# sourceMappingURL=verifier-config.js.map
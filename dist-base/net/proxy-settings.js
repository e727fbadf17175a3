export const NO_PROXY_SETTINGS = { httpProxy: '', httpsProxy: '', noProxy: '' };
/** The settings from the environment; the lower-case variable wins when both are set. */
export function proxySettingsFrom(env) {
    const pick = (name) => (env[name.toLowerCase()] || env[name] || '').trim();
    return { httpProxy: pick('HTTP_PROXY'), httpsProxy: pick('HTTPS_PROXY'), noProxy: pick('NO_PROXY') };
}
/** True when a proxy is configured for either scheme. */
export function proxyConfigured(settings) {
    return settings.httpProxy !== '' || settings.httpsProxy !== '';
}
/** Why a proxy URL cannot be used, or undefined when it can (http, https or socks5 with a host). */
export function proxyUrlProblem(text) {
    if (text === '')
        return undefined;
    if (!URL.canParse(text))
        return 'not a URL (want http://host:port)';
    const url = new URL(text);
    if (!['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol)) {
        return `unsupported scheme ${url.protocol} (want http, https or socks5)`;
    }
    if (url.hostname === '')
        return 'no host';
    return undefined;
}
/** A proxy URL fit for a log line: the password replaced. */
export function describeProxy(text) {
    if (text === '')
        return undefined;
    if (!URL.canParse(text))
        return '(unparseable)';
    const url = new URL(text);
    if (url.password !== '')
        url.password = 'redacted';
    return url.href;
}
//# sourceMappingURL=proxy-settings.js.map
/**
 * Outbound HTTP through the proxy the environment names (proxy-settings.ts). Node's own
 * fetch ignores these variables, so a proxied cluster would otherwise fail every registry,
 * GitHub and identity provider call. undici's `EnvHttpProxyAgent` does the routing: https
 * targets through a CONNECT tunnel, http targets forwarded in absolute form, NO_PROXY hosts
 * direct.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import { proxyConfigured } from './proxy-settings.js';
export * from './proxy-settings.js';
/**
 * A dispatcher that routes by the settings; undefined when no proxy is configured, so the
 * caller keeps its direct path. `lookup` applies to direct connections only: through a proxy,
 * the proxy resolves the target's name.
 */
export function proxyDispatcher(settings, options = {}) {
    if (!proxyConfigured(settings))
        return undefined;
    return new EnvHttpProxyAgent({
        // An explicit empty value keeps undici from reading the process environment itself.
        httpProxy: settings.httpProxy,
        httpsProxy: settings.httpsProxy || settings.httpProxy,
        noProxy: settings.noProxy,
        ...(options.ca || options.lookup
            ? { connect: { ...(options.ca && { ca: options.ca }), ...(options.lookup && { lookup: options.lookup }) } }
            : {}),
        ...(options.ca ? { requestTls: { ca: options.ca } } : {}),
    });
}
/**
 * The fetch every outbound client of the service uses (chart registry, GitHub): the global
 * fetch when no proxy is configured, else undici's fetch over the proxy dispatcher.
 */
export function outboundFetch(settings) {
    const dispatcher = proxyDispatcher(settings);
    if (!dispatcher)
        return globalThis.fetch;
    const proxied = (input, init) => undiciFetch(input, { ...init, dispatcher });
    return proxied;
}
//# sourceMappingURL=proxy.js.map
/**
 * Outbound HTTP through the proxy the environment names (proxy-settings.ts). Node's own
 * fetch ignores these variables, so a proxied cluster would otherwise fail every registry,
 * GitHub and identity provider call. undici's `EnvHttpProxyAgent` does the routing: https
 * targets through a CONNECT tunnel, http targets forwarded in absolute form, NO_PROXY hosts
 * direct.
 */
import type { LookupFunction } from 'node:net';
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { proxyConfigured, type ProxySettings } from './proxy-settings.js';

export * from './proxy-settings.js';

/** What fetch takes as its first argument: a URL (text or object) or a Request. */
type FetchInput = Parameters<typeof fetch>[0];

/** TLS and socket options for the connections a dispatcher makes. */
export interface DispatcherOptions {
  /** Extra CAs (PEM) for the target's certificate, in addition to what `tls` trusts. */
  readonly ca?: string[];
  /** `dns.lookup` replacement for direct connections (the identity provider's address guard). */
  readonly lookup?: LookupFunction;
}

/**
 * A dispatcher that routes by the settings; undefined when no proxy is configured, so the
 * caller keeps its direct path. `lookup` applies to direct connections only: through a proxy,
 * the proxy resolves the target's name.
 */
export function proxyDispatcher(settings: ProxySettings, options: DispatcherOptions = {}): Dispatcher | undefined {
  if (!proxyConfigured(settings)) return undefined;
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
export function outboundFetch(settings: ProxySettings): typeof fetch {
  const dispatcher = proxyDispatcher(settings);
  if (!dispatcher) return globalThis.fetch;
  // safe: undici's fetch is the implementation behind Node's global fetch, and its Request, RequestInit and
  // Response are undici's own declarations of the same classes, which the compiler cannot see as the DOM's.
  const viaDispatcher = undiciFetch as (input: FetchInput, init: object) => Promise<Response>;
  return (input: FetchInput, init?: RequestInit): Promise<Response> => viaDispatcher(input, { ...init, dispatcher });
}

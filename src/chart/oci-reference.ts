/**
 * The agent chart's location: `oci://<registry>/<repository>`, the form Flux's
 * OCIRepository takes. Owns the parse, the chart name (the repository's last segment,
 * `charts/giantswarm/agent` → `agent`) and the scheme the registry is spoken to with:
 * HTTPS always, plain HTTP only for a loopback registry (tests, a local mirror), so a
 * typo can never send registry traffic unencrypted across a network.
 */
import { isIP } from 'node:net';
import { goQuote } from '../core/go-quote.js';

/** A parsed chart URL. */
export interface OciReference {
  /** As configured. */
  readonly url: string;
  /** `host[:port]`, e.g. `gsoci.azurecr.io` or `127.0.0.1:5000`. */
  readonly registry: string;
  /** `charts/giantswarm/agent`. */
  readonly repository: string;
  /** The repository's last segment: the chart's directory inside its archive. */
  readonly chartName: string;
  /** `https://<registry>`, or `http://` for a loopback registry. */
  readonly baseUrl: string;
}

// Registry host (a name, IPv4, or a bracketed IPv6) with an optional port, then a
// repository of lowercase path components as the distribution spec names them.
const HOST =
  String.raw`(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*` +
  String.raw`|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?`;
const COMPONENT = String.raw`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`;
const OCI_URL_RE = new RegExp(String.raw`^oci://(${HOST})/(${COMPONENT}(?:/${COMPONENT})*)$`);

/** Parse `oci://<registry>/<repository>`; anything else throws saying what the URL must look like. */
export function parseOciReference(url: string): OciReference {
  const m = OCI_URL_RE.exec(url);
  if (!m) throw new Error(`chart URL ${goQuote(url)} must look like oci://<registry>/<repository>`);
  const [, registry = '', repository = ''] = m;
  const scheme = isLoopbackRegistry(registry) ? 'http' : 'https';
  return {
    url,
    registry,
    repository,
    chartName: repository.slice(repository.lastIndexOf('/') + 1),
    baseUrl: `${scheme}://${registry}`,
  };
}

/** True for `localhost`, 127.0.0.0/8 and `::1`, with or without a port. */
export function isLoopbackRegistry(registry: string): boolean {
  const host = hostOf(registry).toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

function hostOf(registry: string): string {
  if (registry.startsWith('[')) return registry.slice(1, registry.indexOf(']'));
  const colon = registry.lastIndexOf(':');
  return colon === -1 ? registry : registry.slice(0, colon);
}

/**
 * Which network addresses the identity code may fetch from. The issuer's discovery
 * document and key set are fetched from URLs that come from configuration and from
 * the discovery document itself; without a guard a wrong or hostile `jwks_uri` could
 * make the service probe its own cluster network (SSRF). So, unless
 * `--allow-private-oauth-urls` is set (an in-cluster Dex), every address a host name
 * resolves to must be public, and plain http is accepted only for loopback hosts.
 */
import { BlockList, isIP } from 'node:net';

/** Ranges that are not the public internet: loopback, private, link-local, CGNAT, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (an IP literal) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const [, mapped] = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare) ?? [];
  if (mapped !== undefined) return isPrivateAddress(mapped);
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family === 6) return PRIVATE.check(bare, 'ipv6');
  return false;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for the host names that mean "this machine". */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Check a URL before anything is fetched from it. Returns the reason it is refused,
 * or undefined when it may be fetched (the resolved addresses are checked again at
 * connect time, see `idp-fetch.ts`).
 */
export function refuseUrl(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `${url.href} is not an http(s) URL`;
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `${url.href} must use https (http is accepted for loopback only)`;
  }
  if (url.username || url.password) return `${url.origin} must not carry credentials in the URL`;
  if (!allowPrivate && (isLoopbackHost(url.hostname) || isPrivateAddress(url.hostname))) {
    return `${url.href} points at a private or loopback address; set --allow-private-oauth-urls for an identity ` +
      `provider inside the cluster`;
  }
  return undefined;
}

/**
 * Whether a bound listener address is reachable only from this machine: IPv4 127.0.0.0/8,
 * IPv6 ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address (RFC 4291 2.5.5.2).
 * The wildcard addresses (0.0.0.0, ::) listen on every interface, so they are not.
 */
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True when `address` (an IP literal, as `server.address()` reports it) is loopback. */
export function isLoopbackAddress(address: string): boolean {
  const [, mapped] = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address) ?? [];
  const ip = mapped ?? address;
  const family = isIP(ip);
  if (family === 0) return false;
  return loopback.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

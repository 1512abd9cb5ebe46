// Which address a request came from. The socket's peer is the only fact; X-Forwarded-For is
// believed only hop by hop from the right, and only while the hop that added it is one of the
// operator's configured proxies (ENVOLVE_TRUSTED_PROXIES). Any client can write the header.
import { isIP } from 'node:net';
import type { TrustedProxies } from '../config/trusted-proxies.ts';

export type { TrustedProxies };

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return (mapped ? mapped[1]! : trimmed).toLowerCase();
}

export function isTrusted(proxies: TrustedProxies, address: string): boolean {
  const normalised = normaliseAddress(address);
  const family = isIP(normalised);
  return family !== 0 && proxies.check(normalised, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy, in which case
 * the rightmost X-Forwarded-For entry not itself a trusted proxy. An entry that is not an IP
 * address stops the walk at the hop that vouched for it.
 */
export function resolveClientAddress(socketAddress: string, forwardedFor: string | string[] | undefined, proxies: TrustedProxies): string {
  let client = normaliseAddress(socketAddress);
  if (!isTrusted(proxies, client)) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(hops[i]!);
    if (!isIP(hop)) return client;
    client = hop;
    if (!isTrusted(proxies, hop)) return client;
  }
  return client;
}

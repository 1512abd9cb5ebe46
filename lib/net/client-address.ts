// Which address a request came from. The socket's peer is the only fact; X-Forwarded-For is
// believed only hop by hop from the right, and only while the hop that added it is one of the
// operator's configured proxies (ENVOLVE_TRUSTED_PROXIES). Any client can write the header.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from 'proxy-addr';
import type { TrustedProxies } from '../config/index.ts';

export type { TrustedProxies };

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return (mapped ? mapped[1]! : trimmed).toLowerCase();
}

export function isTrusted(proxies: TrustedProxies, address: string): boolean {
  const normalised = normaliseAddress(address);
  return isIP(normalised) !== 0 && proxies(normalised, 0);
}

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy, in which case
 * the rightmost X-Forwarded-For entry not itself a trusted proxy. An entry that is not an IP
 * address stops the walk at the hop that vouched for it.
 */
export function resolveClientAddress(socketAddress: string, forwardedFor: string | string[] | undefined, proxies: TrustedProxies): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  // proxy-addr reads only the peer and the X-Forwarded-For header of the request it is given.
  const request = { socket: { remoteAddress: socketAddress }, headers: { 'x-forwarded-for': header } } as unknown as IncomingMessage;
  // The peer, then each hop the trusted ones vouched for, nearest first; only the last one can
  // be something other than an IP address (a trusted proxy passed on what the client wrote).
  const chain = proxyAddr.all(request, (address) => isTrusted(proxies, address)).map(normaliseAddress);
  return chain.findLast((address) => isIP(address) !== 0) ?? chain[0]!;
}

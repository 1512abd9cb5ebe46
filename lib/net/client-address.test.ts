import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from '../config/trusted-proxies.ts';
import { resolveClientAddress } from './client-address.ts';

describe('the client address', () => {
  it('without trusted proxies is the socket peer, whatever X-Forwarded-For says', () => {
    const none = parseTrustedProxies(undefined);
    expect(resolveClientAddress('203.0.113.9', '1.2.3.4', none)).toBe('203.0.113.9');
    expect(resolveClientAddress('::ffff:127.0.0.1', '10.9.9.9, 1.2.3.4', none)).toBe('127.0.0.1');
  });

  it('behind a trusted proxy is the rightmost hop the proxies did not add, so a client cannot prepend its way out', () => {
    const proxies = parseTrustedProxies('127.0.0.1, 10.0.0.0/8');
    expect(resolveClientAddress('127.0.0.1', '203.0.113.9', proxies)).toBe('203.0.113.9');
    // The client wrote "6.6.6.6"; nginx appended the real peer.
    expect(resolveClientAddress('127.0.0.1', '6.6.6.6, 203.0.113.9', proxies)).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', ['6.6.6.6', '203.0.113.9, 10.1.2.3'], proxies)).toBe('203.0.113.9');
    // Not an address: the walk stops at the last hop vouched for.
    expect(resolveClientAddress('127.0.0.1', 'evil, 10.1.2.3', proxies)).toBe('10.1.2.3');
    // No header: the proxy itself.
    expect(resolveClientAddress('10.0.0.5', undefined, proxies)).toBe('10.0.0.5');
  });

  it('a peer outside the list is believed only about itself', () => {
    const proxies = parseTrustedProxies('10.0.0.1');
    expect(resolveClientAddress('10.0.0.2', '1.2.3.4', proxies)).toBe('10.0.0.2');
  });

  it('parses IPv6 ranges and refuses what is not an address', () => {
    expect(resolveClientAddress('fd00::1', '2001:db8::7', parseTrustedProxies('fd00::/8'))).toBe('2001:db8::7');
    expect(() => parseTrustedProxies('proxy.internal')).toThrow(/not an address/);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/prefix/);
  });

  it('refuses a /0 range, which would let any client name its own address', () => {
    for (const everything of ['0.0.0.0/0', '::/0', '10.0.0.1 192.168.0.0/0']) expect(() => parseTrustedProxies(everything)).toThrow(/trusts every address/);
    expect(resolveClientAddress('192.168.3.4', '1.2.3.4', parseTrustedProxies('192.168.0.0/1'))).toBe('1.2.3.4');
  });

  it('reads IPv4 peers on dual-stack sockets and bracketed IPv6 hops as the addresses they are', () => {
    const proxies = parseTrustedProxies('10.0.0.0/8');
    expect(resolveClientAddress('::ffff:10.0.0.5', '203.0.113.9', proxies)).toBe('203.0.113.9');
    expect(resolveClientAddress('10.0.0.5', '[2001:DB8::7]', proxies)).toBe('2001:db8::7');
    expect(resolveClientAddress('10.0.0.5', '203.0.113.9, ::ffff:10.1.1.1', proxies)).toBe('203.0.113.9');
  });
});

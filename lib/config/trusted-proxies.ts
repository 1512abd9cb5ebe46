// ENVOLVE_TRUSTED_PROXIES: the operator's reverse proxies, as addresses and CIDR ranges
// (lib/net/client-address.ts believes X-Forwarded-For only from them).
import { BlockList, isIP } from 'node:net';

export type TrustedProxies = BlockList;

/** Parses a comma- or space-separated list of addresses and CIDR ranges; throws on a bad entry. */
export function parseTrustedProxies(spec: string | undefined): TrustedProxies {
  const list = new BlockList();
  for (const entry of (spec ?? '').split(/[\s,]+/).filter(Boolean)) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || extra !== undefined) throw new Error(`ENVOLVE_TRUSTED_PROXIES: not an address or CIDR range: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      list.addAddress(address!, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`ENVOLVE_TRUSTED_PROXIES: bad prefix length in ${entry}`);
    list.addSubnet(address!, prefix, type);
  }
  return list;
}

// ENVOLVE_TRUSTED_PROXIES: the operator's reverse proxies, as addresses and CIDR ranges
// (lib/net/client-address.ts believes X-Forwarded-For only from them).
import { isIP } from 'node:net';
import proxyAddr from 'proxy-addr';

/** Whether an address is one of the operator's proxies (proxy-addr's compiled trust function). */
export type TrustedProxies = (address: string, hop: number) => boolean;

/**
 * Parses a comma- or space-separated list of addresses and CIDR ranges; throws on a bad entry,
 * and on a /0 range: that trusts every address, so any client could name its own address.
 */
export function parseTrustedProxies(spec: string | undefined): TrustedProxies {
  const entries = (spec ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) checkEntry(entry);
  return proxyAddr.compile(entries);
}

function checkEntry(entry: string): void {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) throw new Error(`ENVOLVE_TRUSTED_PROXIES: not an address or CIDR range: ${entry}`);
  if (bits === undefined) return;
  const prefix = Number(bits);
  if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`ENVOLVE_TRUSTED_PROXIES: bad prefix length in ${entry}`);
  if (prefix === 0)
    throw new Error(`ENVOLVE_TRUSTED_PROXIES: ${entry} trusts every address, so any client could choose its own; list the proxies' addresses or ranges`);
}

// The origins this deployment is served on, from configuration rather than from whatever a
// request claims: BETTER_AUTH_URL when set (the public URL behind a proxy), else the HOST and
// PORT the web server listens on. A wildcard HOST (0.0.0.0, ::) means any address of the
// machine; then the origin is the one the request was sent to, as the web server saw it
// (lib/net/forwarded.ts keeps forwarded headers only from trusted proxies).
import { settings, type Settings } from '../config/index.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const WILDCARD = new Set(['', '0.0.0.0', '::', '[::]']);

export interface ServedOrigins {
  /** better-auth's base URL; undefined when each request's own origin is used. */
  baseURL: string | undefined;
  /** The origins a browser may post from; null: the request's own origin only. */
  origins: string[] | null;
}

export function servedOrigins(web: Settings['web'] = settings().web): ServedOrigins {
  if (web.publicUrl) {
    const origin = new URL(web.publicUrl).origin;
    return { baseURL: origin, origins: [origin] };
  }
  const { host, port } = web;
  if (WILDCARD.has(host)) return { baseURL: undefined, origins: null };
  const hosts = LOOPBACK.has(host) ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') && !host.startsWith('[') ? `[${host}]` : host];
  const origins = hosts.map((h) => new URL(`http://${h}:${port}`).origin);
  return { baseURL: origins[0], origins };
}

/** scheme://host[:port], normalised (default ports dropped, host lower-cased), or null. */
export function normaliseOrigin(value: string | null | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether a request's Origin is one this deployment is served on: scheme, host and port.
 * With a wildcard listen address, the request's own origin: its scheme and Host as the web
 * server recorded them in x-forwarded-proto and x-forwarded-host.
 */
export function originAllowed(headers: Headers, served: ServedOrigins): boolean {
  const origin = normaliseOrigin(headers.get('origin'));
  if (!origin) return false;
  if (served.origins) return served.origins.includes(origin);
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || 'http';
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
  return host ? origin === normaliseOrigin(`${proto}://${host}`) : false;
}

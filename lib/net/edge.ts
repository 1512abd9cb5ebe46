// What Envolve's web server does with each request before the app sees it: refuse what the app
// would only fail on or should never see (a request target that is not a path, a path that is not
// valid percent-encoded UTF-8, a malformed router-state header, a body over the route's cap, a
// server action from another origin), and replace the headers any client can forge with what the
// socket and the configured trusted proxies say. Framework-free; the Node server glue (time limits,
// the connection cap) is in cli/commands/web.ts.
import { bodyLimitFor } from './body-limits.ts';
import { CLIENT_ADDRESS_HEADER } from './client-address-header.ts';
import { isTrusted, normaliseAddress, resolveClientAddress, type TrustedProxies } from './client-address.ts';
import { originAllowed, type ServedOrigins } from './origins.ts';
import { COMMON_SECURITY_HEADERS, NON_PAGE_CONTENT_SECURITY_POLICY } from './security-headers.ts';

export interface EdgeRequest {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  socketAddress: string;
}

export interface EdgeRefusal {
  status: 400 | 403 | 411 | 413;
  error: string;
  message: string;
}

/** What the app's framework knows about a request that the edge checks for it. */
export interface EdgeChecks {
  /** Whether a router-state header would parse (Next's own parser: it answers 500 otherwise). */
  routerStateValid: (header: string | string[]) => boolean;
}

const ROUTER_STATE_HEADER = 'next-router-state-tree';

const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

/** Why the request is refused, or null. */
export function refusal(request: EdgeRequest, checks: EdgeChecks): EdgeRefusal | null {
  // Only origin-form: `*` and absolute URLs (a proxy's forms) would reach the app's router as paths of another host.
  if (!request.url.startsWith('/')) return { status: 400, error: 'bad_target', message: 'the request target must be a path' };
  const pathname = request.url.split(/[?#]/, 1)[0]!;
  try {
    decodeURIComponent(pathname);
  } catch {
    return { status: 400, error: 'bad_path', message: 'the path is not valid percent-encoded UTF-8' };
  }
  const routerState = request.headers[ROUTER_STATE_HEADER];
  if (routerState !== undefined && !checks.routerStateValid(routerState)) {
    return { status: 400, error: 'bad_router_state', message: `the ${ROUTER_STATE_HEADER} header is not a valid router state` };
  }
  const limit = bodyLimitFor(request.method, pathname);
  if (limit === 0) return null;
  const declared = request.headers['content-length'];
  const chunked = /chunked/i.test(String(request.headers['transfer-encoding'] ?? ''));
  if (declared === undefined) {
    return chunked ? { status: 411, error: 'length_required', message: 'send the body with a Content-Length' } : null;
  }
  const length = Number(declared);
  if (!Number.isFinite(length) || length > limit) {
    return { status: 413, error: 'body_too_large', message: `the body may have at most ${limit} bytes on this route` };
  }
  return null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that changes something outside the JSON API is a server action (a form post, with or
 * without JavaScript): it must come from an origin this deployment is served on, as the JSON
 * routes' mutations must (lib/auth/guard.ts). Next's own check lets a missing Origin through and
 * compares the host only. `headers` are the trustworthy ones.
 */
export function actionRefusal(method: string, url: string, headers: Record<string, string | string[] | undefined>, served: ServedOrigins): EdgeRefusal | null {
  if (SAFE_METHODS.has(method.toUpperCase()) || url.startsWith('/api/')) return null;
  const asHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') asHeaders.set(name, value);
  if (originAllowed(asHeaders, served)) return null;
  return { status: 403, error: 'bad_origin', message: 'a form may only be sent from a page of this site' };
}

/**
 * The security headers every response starts with, as the app's JSON answers have them. Pages
 * replace the policy with their nonce-carrying one (proxy.ts); a response the app leaves bare
 * (e.g. its 404 for /favicon.ico) keeps these.
 */
export const DEFAULT_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON_SECURITY_HEADERS,
  'content-security-policy': NON_PAGE_CONTENT_SECURITY_POLICY,
};

/** The headers of every response the edge writes itself. */
export function edgeResponseHeaders(): Record<string, string> {
  return { ...DEFAULT_SECURITY_HEADERS, 'content-type': 'application/json', connection: 'close' };
}

/** A whole HTTP/1.1 response, for answers written to a socket before (or instead of) the HTTP parser's. */
export function rawResponse(status: number, reason: string, body: { error: string; message: string }): string {
  const text = JSON.stringify(body);
  const headers = { ...edgeResponseHeaders(), 'content-length': String(Buffer.byteLength(text)) };
  return `HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n${text}`;
}

/** The key the connection cap counts a socket under: its peer, or null for a trusted proxy (it carries many clients). */
export function connectionCapKey(socketAddress: string, proxies: TrustedProxies): string | null {
  return isTrusted(proxies, socketAddress) ? null : normaliseAddress(socketAddress);
}

/**
 * The headers the app receives: forwarded headers only when the socket peer is a trusted
 * proxy (otherwise Next fills them in from the connection itself), and the resolved client
 * address in CLIENT_ADDRESS_HEADER, never a client's own copy of it.
 */
export function trustworthyHeaders(request: EdgeRequest, proxies: TrustedProxies): Record<string, string | string[] | undefined> {
  const headers = { ...request.headers };
  const forwardedFor = headers['x-forwarded-for'];
  if (!isTrusted(proxies, request.socketAddress)) for (const name of FORWARDED_HEADERS) delete headers[name];
  headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(request.socketAddress, forwardedFor, proxies);
  return headers;
}

/** A request's headers must have arrived this long after the connection was ready for them. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A request's headers and body must both have arrived this long after it started (the largest body is 1 MiB). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often the server looks for requests past those limits: one is cut off at most this long after its limit. */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
/** Open connections one client address may hold at once; a trusted proxy's are not counted. */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

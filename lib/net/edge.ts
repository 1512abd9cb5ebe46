// What Envolve's web server does with each request before the app sees it: refuse what the app
// would only fail on (a path that is not valid percent-encoded UTF-8, a body over the route's
// cap), and replace the headers any client can forge with what the socket and the configured
// trusted proxies say. Framework-free; the Node server glue is in cli/commands/web.ts.
import { bodyLimitFor } from './body-limits.ts';
import { CLIENT_ADDRESS_HEADER } from './client-address-header.ts';
import { isTrusted, resolveClientAddress, type TrustedProxies } from './client-address.ts';

export interface EdgeRequest {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  socketAddress: string;
}

export interface EdgeRefusal {
  status: 400 | 411 | 413;
  error: string;
  message: string;
}

const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip'];

/** Why the request is refused, or null. */
export function refusal(request: EdgeRequest): EdgeRefusal | null {
  const target = request.url.startsWith('/') ? request.url : '/';
  const pathname = target.split(/[?#]/, 1)[0]!;
  try {
    decodeURIComponent(pathname);
  } catch {
    return { status: 400, error: 'bad_path', message: 'the path is not valid percent-encoded UTF-8' };
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

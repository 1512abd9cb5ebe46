// Runs before every page request: passes the requested path on to the server components, and
// gives the page a Content-Security-Policy with a fresh nonce (Next reads it from the request's
// own CSP header and puts it on the scripts it renders).
import { NextResponse, type NextRequest } from 'next/server';
import { pageContentSecurityPolicy } from './lib/net/browser.ts';
import { PATH_HEADER } from './app/_server/path-header.ts';

export function proxy(request: NextRequest): NextResponse {
  const nonce = btoa(crypto.randomUUID());
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  const forwarded = new Headers(request.headers);
  forwarded.set(PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  forwarded.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  // Pages only: not the auth endpoints, the JSON routes, or static assets (next.config.ts gives
  // those their headers).
  matcher: ['/((?!api/|_next/|icon.svg|favicon.ico).*)'],
};

// Runs before every page request and passes the requested path on to the server components.
import { NextResponse, type NextRequest } from 'next/server';
import { PATH_HEADER } from './app/_server/path-header.ts';

export function proxy(request: NextRequest): NextResponse {
  const forwarded = new Headers(request.headers);
  forwarded.set(PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = {
  // Pages only: not the auth endpoints, the JSON routes, or static assets.
  matcher: ['/((?!api/|_next/|icon.svg|favicon.ico).*)'],
};

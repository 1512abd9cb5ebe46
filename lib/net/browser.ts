// The browser-safe entry of lib/net: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below), so also in proxy.ts and next.config.ts, which
// Next loads apart from the server. Everything else imports lib/net/index.ts (README, Layers).
export { COMMON_SECURITY_HEADERS, NON_PAGE_CONTENT_SECURITY_POLICY, pageContentSecurityPolicy } from './security-headers.ts';

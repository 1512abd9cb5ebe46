import type { NextConfig } from 'next';
import { COMMON_SECURITY_HEADERS, NON_PAGE_CONTENT_SECURITY_POLICY } from './lib/net/browser.ts';

const asList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Native addons, and the packages that load them, must stay plain Node
  // `require`s: bundling breaks their `.node` binary lookup (dockerode pulls in
  // ssh2 and cpu-features). The generated Prisma client (lib/db/generated, with
  // `.ts` import specifiers) is ordinary source and is bundled with the app.
  // dictionary-en reads its word files next to itself (import.meta.url), so it and
  // nspell (the rubric's spelling check) load from node_modules as well.
  serverExternalPackages: [
    'better-sqlite3',
    '@prisma/adapter-better-sqlite3',
    'dockerode',
    'ssh2',
    'cpu-features',
    'pg',
    '@prisma/adapter-pg',
    'pg-boss',
    'nspell',
    'dictionary-en',
  ],
  typedRoutes: true,
  poweredByHeader: false,
  // A second build beside the default one (parallel end-to-end runs on one checkout).
  distDir: process.env.ENVOLVE_NEXT_DIST_DIR ?? '.next',
  // forbidden() from next/navigation: a signed-in user without the permission gets app/forbidden.tsx with 403.
  experimental: { authInterrupts: true },
  // Pages get their nonce-carrying CSP from proxy.ts; every other path gets one that allows nothing.
  async headers() {
    const nonPage = asList({ 'content-security-policy': NON_PAGE_CONTENT_SECURITY_POLICY });
    return [
      { source: '/:path*', headers: asList(COMMON_SECURITY_HEADERS) },
      { source: '/api/:path*', headers: nonPage },
      { source: '/_next/static/:path*', headers: nonPage },
      { source: '/icon.svg', headers: nonPage },
    ];
  },
};

export default nextConfig;

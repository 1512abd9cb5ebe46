import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native addons and packages that load them at runtime must stay plain Node
  // `require`s; bundling them breaks their `.node` binary lookup. The generated
  // Prisma client itself (lib/db/generated, with `.ts` import specifiers) is
  // ordinary source and is bundled like the rest of the app.
  serverExternalPackages: [
    'better-sqlite3',
    '@prisma/adapter-better-sqlite3',
    'tsx',
    'dockerode',
    'ssh2',
    'cpu-features',
  ],
  typedRoutes: true,
  poweredByHeader: false,
};

export default nextConfig;

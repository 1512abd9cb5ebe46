// The web server's better-auth instance, made on first use over the shared database client.
import { nextCookies } from 'better-auth/next-js';
import { createAuth, type Auth, loadAuthSecret } from '@/lib/auth/index.ts';
import { requestDb } from './db.ts';
import { configuredOrigins } from './served-origins.ts';

const holder = globalThis as typeof globalThis & { envolveAuth?: Auth };

export async function getAuth(): Promise<Auth> {
  const db = await requestDb();
  const { baseURL, origins } = configuredOrigins();
  holder.envolveAuth ??= createAuth(db, {
    secret: loadAuthSecret(),
    baseURL,
    trustedOrigins: origins ?? undefined,
    // Lets server actions (sign-in, sign-out) set and clear the session cookie.
    plugins: [nextCookies()],
  });
  return holder.envolveAuth;
}

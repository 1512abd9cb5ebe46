// The better-auth instance over Envolve's database: email and password accounts, sessions in
// httpOnly cookies, and Envolve's role as a user field nobody can set for themselves.
import { prismaAdapter } from '@better-auth/prisma-adapter';
import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import type { Db } from '../db/client.ts';

export interface AuthOptions {
  secret: string;
  /** The public URL (BETTER_AUTH_URL). Unset, better-auth takes it from each request. */
  baseURL?: string;
  /** Framework glue, e.g. next-js's nextCookies(); the core stays framework-free. */
  plugins?: BetterAuthPlugin[];
}

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export function createAuth(db: Db, options: AuthOptions) {
  return betterAuth({
    appName: 'Envolve',
    secret: options.secret,
    baseURL: options.baseURL,
    database: prismaAdapter(db, { provider: 'sqlite' }),
    // Accounts are made by admins (dashboard or CLI), never by visitors.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10 },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'reviewer', input: false },
      },
    },
    session: { expiresIn: SESSION_LIFETIME_SECONDS },
    advanced: {
      // Secure cookies exactly when the public URL is https. Unset, the default would key
      // off NODE_ENV, and `next start` over plain http on a LAN address would lose them.
      useSecureCookies: options.baseURL ? options.baseURL.startsWith('https://') : false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // These machines reach no outside host; nothing may try to phone home.
    telemetry: { enabled: false },
    plugins: options.plugins ?? [],
  });
}

export type Auth = ReturnType<typeof createAuth>;

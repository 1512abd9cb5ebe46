// The better-auth instance over Envolve's database: email and password accounts, sessions in
// httpOnly cookies, and Envolve's role as a user field nobody can set for themselves.
import { prismaAdapter } from '@better-auth/prisma-adapter';
import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Db } from '../db/index.ts';
import { CLIENT_ADDRESS_HEADER } from '../net/index.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy.ts';
import { PASSWORD_PATHS, passwordAttempt, refuseDeactivated, SignInGuard } from './password-attempts.ts';
import type { SignInThrottleConfig } from './sign-in-throttle.ts';

export interface AuthOptions {
  secret: string;
  /** The public URL; unset, better-auth takes it from each request. */
  baseURL?: string;
  /** Origins allowed to post to the auth endpoints (see lib/net/origins.ts). */
  trustedOrigins?: string[];
  /** Framework glue, e.g. next-js's nextCookies(); the core stays framework-free. */
  plugins?: BetterAuthPlugin[];
  /** The sign-in limits; unset, the settings' (lib/auth/sign-in-throttle.ts). */
  signInThrottle?: SignInThrottleConfig;
}

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export function createAuth(db: Db, options: AuthOptions) {
  const guard = new SignInGuard(db, options.signInThrottle);
  return betterAuth({
    appName: 'Envolve',
    secret: options.secret,
    baseURL: options.baseURL,
    trustedOrigins: options.trustedOrigins,
    database: prismaAdapter(db, { provider: 'sqlite' }),
    // Accounts are made by admins (dashboard or CLI), never by visitors.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD_LENGTH, maxPasswordLength: MAX_PASSWORD_LENGTH },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'reviewer', input: false },
        deactivatedAt: { type: 'date', required: false, input: false },
      },
    },
    session: { expiresIn: SESSION_LIFETIME_SECONDS },
    // Every password check is throttled by Envolve (lib/auth/password-attempts.ts), keyed by account
    // and by the address the web server resolved; better-auth's own limiter sees only its HTTP
    // endpoint, not server-side calls, keeps its counts per process, and keys by address alone.
    rateLimit: { enabled: false },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const attempt = await passwordAttempt(ctx, db);
        if (!attempt) return;
        await guard.begin(attempt, ctx.headers);
        if (ctx.path === '/sign-in/email') await refuseDeactivated(ctx, db, attempt.user);
        if (ctx.path === '/change-password') {
          const body = ctx.body as { newPassword?: unknown } | undefined;
          const problem = passwordProblem(String(body?.newPassword ?? ''), attempt.user ? [attempt.user.email, attempt.user.name] : []);
          if (problem) throw new APIError('BAD_REQUEST', { message: problem });
          // A new password ends every other session: whoever knew the old one is signed out.
          return { context: { body: { revokeOtherSessions: true } } };
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (!PASSWORD_PATHS.has(ctx.path) || isAPIError(ctx.context.returned)) return;
        // Sign-in and change-password both end with a new session of the account whose password was right.
        const email = ctx.context.newSession?.user.email;
        if (email) await guard.succeeded(email, ctx.headers);
      }),
    },
    advanced: {
      // Secure cookies exactly when the public URL is https. Unset, the default would key
      // off NODE_ENV, and `next start` over plain http on a LAN address would lose them.
      useSecureCookies: options.baseURL ? options.baseURL.startsWith('https://') : false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // Only the header Envolve's web server sets from the socket and the trusted proxies.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // These machines reach no outside host; nothing may try to phone home.
    telemetry: { enabled: false },
    plugins: options.plugins ?? [],
  });
}

export type Auth = ReturnType<typeof createAuth>;

// Every better-auth endpoint that checks a password goes through here, from its before and after
// hooks: so the HTTP endpoint (a JSON or a form body alike: better-auth parses it first), the
// sign-in form's server action (auth.api calls run the same hooks) and change-password share one
// throttle, keyed by the account better-auth itself will check.
import { setTimeout as sleep } from 'node:timers/promises';
import { BASE_ERROR_CODES } from 'better-auth';
import { APIError, getSessionFromCtx } from 'better-auth/api';
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { CLIENT_ADDRESS_HEADER } from '../net/index.ts';
import { normaliseAccount, SignInThrottle, signInThrottleConfigFrom, tooManyAttemptsMessage, type SignInThrottleConfig } from './sign-in-throttle.ts';

export const PASSWORD_PATHS: ReadonlySet<string> = new Set(['/sign-in/email', '/change-password', '/verify-password']);

interface AttemptUser {
  id: string;
  email: string;
  name: string;
  deactivatedAt?: Date | null;
}

export interface PasswordAttempt {
  /** The account as the request names it (typed for sign-in, the session's otherwise). */
  account: string;
  /** The account's user, when it exists. */
  user: AttemptUser | null;
}

// The slice of better-auth's hook context this module reads.
type HookContext = Parameters<typeof getSessionFromCtx>[0] & { path: string; body?: unknown };

/** The account a password check is about, or null when the request checks no password (or has no session to check it for). */
export async function passwordAttempt(ctx: HookContext, db: Db): Promise<PasswordAttempt | null> {
  if (!PASSWORD_PATHS.has(ctx.path)) return null;
  if (ctx.path === '/sign-in/email') {
    const email = (ctx.body as { email?: unknown } | undefined)?.email;
    const account = (typeof email === 'string' ? email : JSON.stringify(email ?? '')).slice(0, 320);
    const user = await db.user.findUnique({ where: { email: normaliseAccount(account) }, select: { id: true, email: true, name: true, deactivatedAt: true } });
    return { account, user };
  }
  const session = await getSessionFromCtx(ctx);
  return session ? { account: session.user.email, user: session.user } : null;
}

export const ACCOUNT_DEACTIVATED_MESSAGE = 'This account is deactivated; ask an admin to reactivate it.';

/**
 * A deactivated account is refused. Only someone who knows its password learns why (a 403
 * ACCOUNT_DEACTIVATED, so its owner stops retrying into a lockout); a wrong password gets the
 * unknown account's answer, status and body, after the same one password-hash of work
 * (better-auth hashes the password it was sent for an unknown email), so the answer reveals
 * nothing about which accounts exist to anyone without their password.
 */
export async function refuseDeactivated(ctx: HookContext, db: Db, user: AttemptUser | null): Promise<void> {
  if (!user?.deactivatedAt) return;
  const password = String((ctx.body as { password?: unknown } | undefined)?.password ?? '');
  const credential = await db.account.findFirst({ where: { userId: user.id, providerId: 'credential' }, select: { password: true } });
  const verified = credential?.password
    ? await ctx.context.password.verify({ hash: credential.password, password })
    : (await ctx.context.password.hash(password), false);
  if (verified) throw new APIError('FORBIDDEN', { code: 'ACCOUNT_DEACTIVATED', message: ACCOUNT_DEACTIVATED_MESSAGE });
  throw APIError.from('UNAUTHORIZED', BASE_ERROR_CODES.INVALID_EMAIL_OR_PASSWORD);
}

const addressOf = (headers: Headers | undefined) => headers?.get(CLIENT_ADDRESS_HEADER) ?? 'unknown';

/** The throttle as the hooks use it: refusals as better-auth errors, lockouts audited. */
export class SignInGuard {
  private throttle: SignInThrottle | undefined;

  constructor(
    private readonly db: Db,
    private readonly config?: SignInThrottleConfig,
  ) {}

  // Made on first use: an instance that only hashes passwords (the CLI's) never needs it.
  private counters(): SignInThrottle {
    this.throttle ??= new SignInThrottle(this.db, this.config ?? signInThrottleConfigFrom());
    return this.throttle;
  }

  /** Counts the attempt, or throws the 429 that refuses it; past the account's ceiling, waits first. */
  async begin(attempt: PasswordAttempt, headers: Headers | undefined): Promise<void> {
    const address = addressOf(headers);
    const decision = await this.counters().begin({ account: attempt.account, address });
    if (decision.allowed) {
      if (decision.slowdownMs > 0) await sleep(decision.slowdownMs);
      return;
    }
    const { retryAfterSeconds, locked } = decision;
    if (locked.length > 0) {
      // The account by id, never by the text that was typed: a typed email is the attacker's to choose.
      await recordAudit(this.db, {
        actor: { id: null, email: `client ${address}` },
        action: 'auth.sign-in-throttled',
        subjectType: attempt.user ? 'user' : 'sign-in',
        subjectId: attempt.user ? attempt.user.id : 'unknown-account',
        after: { locked, address, retryAfterSeconds },
      });
    }
    throw new APIError(
      'TOO_MANY_REQUESTS',
      { error: 'too_many_attempts', code: 'TOO_MANY_ATTEMPTS', message: tooManyAttemptsMessage(retryAfterSeconds), retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds) },
    );
  }

  async succeeded(account: string, headers: Headers | undefined): Promise<void> {
    await this.counters().succeeded({ account, address: addressOf(headers) });
  }
}

// Sign-in throttling for every way a password is checked (better-auth's sign-in endpoint with any
// body type, the sign-in form's server action, change-password), counted in the database
// (rate-limiter-flexible's Prisma store over the SignInCounter table) so that every web process
// shares the counts and a restart keeps them. Three counters, each over a sliding window:
// - an account from one client address: past its limit that pair is locked out, each further
//   lockout of the pair twice as long. An attacker locks out only himself: the right password
//   from an address that has not been failing still signs in.
// - a client address over all accounts: past its limit the address is locked out (password spraying).
// - an account over all addresses: past this ceiling attempts are slowed, never refused, so that
//   a distributed guesser is slowed down without anyone being able to keep the owner out.
// Attempts are counted when they start, so parallel guesses cannot slip past a limit before the
// first failure is known; a success clears its pair and gives the other counters their attempt back.
// The table stays bounded: an attempt at a locked pair or from a locked address is refused after
// reads only, so it writes nothing; the address is counted before the pair and the account, so the
// rows an address can create (one pair and one account row per account it tries, known or not) are
// paid for by its own attempts, at most maxAttemptsPerAddress of them per lockout; and every
// counted attempt deletes up to SWEEP_BATCH expired rows. Unknown accounts keep a counter per
// typed account, as real ones do: a counter shared by every unknown account of an address would
// lock sooner than real accounts' counters and so tell which accounts exist.
import { createHash } from 'node:crypto';
import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible';
import { settings, type Settings } from '../config/index.ts';
import type { Db } from '../db/index.ts';

export interface SignInThrottleConfig {
  /** Attempts at one account from one client address. */
  maxAttemptsPerAccount: number;
  maxAttemptsPerAddress: number;
  /** Attempts at one account from all addresses, past which each attempt waits slowdownMs. */
  accountCeiling: number;
  slowdownMs: number;
  /** Attempts are forgotten this long after a counter's first one. */
  windowSeconds: number;
  /** The first lockout; each further one of the same counter doubles, up to maxLockoutSeconds. */
  lockoutSeconds: number;
  maxLockoutSeconds: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleConfig = {
  maxAttemptsPerAccount: 5,
  maxAttemptsPerAddress: 20,
  accountCeiling: 100,
  slowdownMs: 2_000,
  windowSeconds: 15 * 60,
  lockoutSeconds: 60,
  maxLockoutSeconds: 60 * 60,
};

// Lockouts of a counter are remembered this long for the doubling.
const LOCKOUT_MEMORY_SECONDS = 24 * 60 * 60;
// Expired rows deleted by one counted attempt: more than any attempt writes (at most four rows),
// so expired rows never pile up, and few enough that an attempt's sweep stays one small query.
export const SWEEP_BATCH = 50;

export function signInThrottleConfigFrom(fromSettings: Settings['signIn'] = settings().signIn): SignInThrottleConfig {
  return {
    ...DEFAULT_SIGN_IN_THROTTLE,
    ...fromSettings,
    maxLockoutSeconds: Math.max(fromSettings.lockoutSeconds, DEFAULT_SIGN_IN_THROTTLE.maxLockoutSeconds),
  };
}

export interface SignInKeys {
  /** The account as typed: normalised here, so unknown accounts are throttled like real ones. */
  account: string;
  /** The client address the web server resolved (lib/net/client-address.ts). */
  address: string;
}

export type ThrottleDecision =
  | { allowed: true; /** Past the account's ceiling: wait this long before checking the password. */ slowdownMs: number }
  | {
      allowed: false;
      retryAfterSeconds: number;
      /** The counters this attempt locked (an audit entry); empty if already locked. */
      locked: ('account' | 'address')[];
    };

const PREFIX = { pair: 'signin-pair', address: 'signin-address', account: 'signin-account', lockouts: 'signin-lockouts' } as const;
// The Prisma client's accessor of the SignInCounter model.
const TABLE = 'signInCounter';

export function normaliseAccount(account: string): string {
  return account.trim().toLowerCase();
}

// Keys hold a digest of the account: no typed text is stored, and no separator can be forged.
function accountDigest(account: string): string {
  return createHash('sha256').update(normaliseAccount(account)).digest('hex').slice(0, 32);
}

const pairKey = (keys: SignInKeys) => `${accountDigest(keys.account)}|${keys.address}`;

export class SignInThrottle {
  private readonly pair: RateLimiterPrisma;
  private readonly address: RateLimiterPrisma;
  private readonly account: RateLimiterPrisma;
  private readonly lockouts: RateLimiterPrisma;

  constructor(
    private readonly db: Db,
    private readonly config: SignInThrottleConfig,
  ) {
    // No limiter runs its own timed clean-up: begin() sweeps expired rows as it writes.
    const common = { storeClient: db, tableName: TABLE, duration: config.windowSeconds, clearExpiredByTimeout: false };
    this.pair = new RateLimiterPrisma({ ...common, keyPrefix: PREFIX.pair, points: config.maxAttemptsPerAccount });
    this.address = new RateLimiterPrisma({ ...common, keyPrefix: PREFIX.address, points: config.maxAttemptsPerAddress });
    this.account = new RateLimiterPrisma({ ...common, keyPrefix: PREFIX.account, points: config.accountCeiling });
    this.lockouts = new RateLimiterPrisma({ ...common, keyPrefix: PREFIX.lockouts, points: Number.MAX_SAFE_INTEGER, duration: LOCKOUT_MEMORY_SECONDS });
  }

  /** Starts an attempt: allowed (and counted), or refused with the seconds until the next may start. */
  async begin(keys: SignInKeys): Promise<ThrottleDecision> {
    const pairId = pairKey(keys);
    const held = (await Promise.all([this.lockOf(this.pair, pairId), this.lockOf(this.address, keys.address)])).filter((s) => s !== null);
    if (held.length > 0) return { allowed: false, retryAfterSeconds: Math.max(...held), locked: [] };

    const address = await this.count(this.address, keys.address);
    if (address) return { allowed: false, retryAfterSeconds: address.retryAfterSeconds, locked: address.newLockout ? ['address'] : [] };
    const pair = await this.count(this.pair, pairId);
    if (pair) return { allowed: false, retryAfterSeconds: pair.retryAfterSeconds, locked: pair.newLockout ? ['account'] : [] };
    const overCeiling = await this.account.consume(accountDigest(keys.account)).then(
      () => false,
      (rejected: unknown) => {
        if (rejected instanceof RateLimiterRes) return true;
        throw rejected;
      },
    );
    await this.sweepExpired();
    return { allowed: true, slowdownMs: overCeiling ? this.config.slowdownMs : 0 };
  }

  /** The password was right: the pair starts afresh; the address and the account get their attempt back. */
  async succeeded(keys: SignInKeys): Promise<void> {
    await Promise.all([this.pair.delete(pairKey(keys)), giveBack(this.address, keys.address), giveBack(this.account, accountDigest(keys.account))]);
  }

  /** Seconds until a locked counter opens again, or null when it is not locked; reads only. */
  private async lockOf(limiter: RateLimiterPrisma, key: string): Promise<number | null> {
    const counted = await limiter.get(key);
    if (!counted || counted.consumedPoints <= limiter.points) return null;
    return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  }

  /** Deletes at most SWEEP_BATCH expired rows, each only if it is still expired (a new window may have reused its key). */
  private async sweepExpired(): Promise<void> {
    const now = new Date();
    const expired = await this.db.signInCounter.findMany({ where: { expire: { lt: now } }, select: { key: true }, take: SWEEP_BATCH });
    if (expired.length > 0) await this.db.signInCounter.deleteMany({ where: { key: { in: expired.map((row) => row.key) }, expire: { lt: now } } });
  }

  /** Counts an attempt on one counter: null when allowed, else how long it is refused and whether this attempt locked it. */
  private async count(limiter: RateLimiterPrisma, key: string): Promise<{ retryAfterSeconds: number; newLockout: boolean } | null> {
    try {
      await limiter.consume(key);
      return null;
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      // The attempt one past the limit locks the counter; later ones find it locked.
      if (rejected.consumedPoints !== limiter.points + 1) return { retryAfterSeconds: Math.max(1, Math.ceil(rejected.msBeforeNext / 1000)), newLockout: false };
      const lockouts = (await this.lockouts.consume(`${limiter.keyPrefix}:${key}`)).consumedPoints;
      const seconds = Math.min(this.config.lockoutSeconds * 2 ** (lockouts - 1), this.config.maxLockoutSeconds);
      await limiter.block(key, seconds);
      return { retryAfterSeconds: seconds, newLockout: true };
    }
  }
}

async function giveBack(limiter: RateLimiterPrisma, key: string): Promise<void> {
  const counted = await limiter.get(key);
  if (counted && counted.consumedPoints > 0 && counted.consumedPoints <= limiter.points) await limiter.reward(key, 1);
}

/**
 * Forgets every count and lockout of an account, from every address: after an admin's reset or
 * `envolve users set-password`, the new password works at once. Needs no throttle instance.
 */
export async function clearSignInCounts(db: Db, account: string): Promise<void> {
  const digest = accountDigest(account);
  await db.signInCounter.deleteMany({
    where: {
      OR: [
        { key: { startsWith: `${PREFIX.pair}:${digest}|` } },
        { key: { startsWith: `${PREFIX.lockouts}:${PREFIX.pair}:${digest}|` } },
        { key: `${PREFIX.account}:${digest}` },
      ],
    },
  });
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many sign-in attempts. Try again in ${retryAfterSeconds} s.`;
}

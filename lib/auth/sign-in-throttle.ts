// Sign-in throttling by account and by client address, the same for every path that checks a
// password (the sign-in form's server action and better-auth's HTTP endpoint). Attempts are
// counted when they start, so parallel guesses cannot slip past the limit before the first
// failure is known; a success gives its attempt back. Past the limit a key is locked, and each
// further lockout inside the window lasts twice as long (backoff).
import { settings, type Settings } from '../config/settings.ts';

export interface SignInThrottleConfig {
  maxAttemptsPerAccount: number;
  maxAttemptsPerAddress: number;
  /** Attempts are forgotten this long after a key's last one. */
  windowSeconds: number;
  /** The first lockout; each further one doubles, up to maxLockoutSeconds. */
  lockoutSeconds: number;
  maxLockoutSeconds: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleConfig = {
  maxAttemptsPerAccount: 5,
  maxAttemptsPerAddress: 20,
  windowSeconds: 15 * 60,
  lockoutSeconds: 60,
  maxLockoutSeconds: 60 * 60,
};

export function signInThrottleConfigFrom(fromSettings: Settings['signIn'] = settings().signIn): SignInThrottleConfig {
  return { ...fromSettings, maxLockoutSeconds: Math.max(fromSettings.lockoutSeconds, DEFAULT_SIGN_IN_THROTTLE.maxLockoutSeconds) };
}

export interface SignInKeys {
  /** The email as typed, lower-cased: unknown accounts are throttled like real ones. */
  account: string;
  address: string;
}

export type ThrottleDecision =
  | { allowed: true }
  | {
      allowed: false;
      retryAfterSeconds: number;
      /** The keys this attempt locked (an audit entry each); empty if already locked. */ locked: ('account' | 'address')[];
    };

interface Entry {
  attempts: number;
  lastAttemptAt: number;
  lockedUntil: number;
  lockouts: number;
}

const PRUNE_ABOVE = 10_000;

export class SignInThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly config: SignInThrottleConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts an attempt: allowed (and counted), or refused with the seconds until the next may start. */
  begin(keys: SignInKeys): ThrottleDecision {
    const now = this.now();
    if (this.entries.size > PRUNE_ABOVE) this.prune(now);
    const scoped = this.scoped(keys);
    const lockedUntil = Math.max(...scoped.map(({ key }) => this.live(key, now)?.lockedUntil ?? 0));
    if (lockedUntil > now) return { allowed: false, retryAfterSeconds: Math.ceil((lockedUntil - now) / 1000), locked: [] };

    const locked: ('account' | 'address')[] = [];
    let until = 0;
    for (const { scope, key, max } of scoped) {
      const entry = this.live(key, now) ?? { attempts: 0, lastAttemptAt: now, lockedUntil: 0, lockouts: 0 };
      entry.attempts += 1;
      entry.lastAttemptAt = now;
      if (entry.attempts > max) {
        const seconds = Math.min(this.config.lockoutSeconds * 2 ** entry.lockouts, this.config.maxLockoutSeconds);
        entry.lockedUntil = now + seconds * 1000;
        entry.lockouts += 1;
        // One more attempt after the lockout; failing it locks again, for longer.
        entry.attempts = max;
        locked.push(scope);
        until = Math.max(until, entry.lockedUntil);
      }
      this.entries.set(key, entry);
    }
    if (locked.length > 0) return { allowed: false, retryAfterSeconds: Math.ceil((until - now) / 1000), locked };
    return { allowed: true };
  }

  /** The password was right: the account starts afresh, and the address gets its attempt back. */
  succeeded(keys: SignInKeys): void {
    const [account, address] = this.scoped(keys);
    this.entries.delete(account!.key);
    const entry = this.entries.get(address!.key);
    if (entry && entry.attempts > 0) entry.attempts -= 1;
  }

  private scoped(keys: SignInKeys) {
    return [
      { scope: 'account' as const, key: `account:${keys.account.trim().toLowerCase()}`, max: this.config.maxAttemptsPerAccount },
      { scope: 'address' as const, key: `address:${keys.address}`, max: this.config.maxAttemptsPerAddress },
    ];
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.expired(entry, now)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private expired(entry: Entry, now: number): boolean {
    return entry.lockedUntil <= now && now - entry.lastAttemptAt > this.config.windowSeconds * 1000;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (this.expired(entry, now)) this.entries.delete(key);
  }
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many sign-in attempts. Try again in ${retryAfterSeconds} s.`;
}

// The web server's sign-in throttle, shared by the sign-in form's server action and
// better-auth's HTTP endpoint, so that neither path is a way around the other's limit.
import { recordAudit } from '@/lib/audit/record.ts';
import { SignInThrottle, signInThrottleConfigFrom, type SignInKeys } from '@/lib/auth/sign-in-throttle.ts';
import { CLIENT_ADDRESS_HEADER } from '@/lib/net/client-address-header.ts';
import { requestDb } from './db.ts';

const holder = globalThis as typeof globalThis & { envolveSignInThrottle?: SignInThrottle };

function throttle(): SignInThrottle {
  holder.envolveSignInThrottle ??= new SignInThrottle(signInThrottleConfigFrom());
  return holder.envolveSignInThrottle;
}

export function signInKeys(email: string, headers: Headers): SignInKeys {
  // Set by Envolve's web server from the socket and ENVOLVE_TRUSTED_PROXIES; a server started
  // some other way has no address to go by, and all its clients share one.
  return { account: email, address: headers.get(CLIENT_ADDRESS_HEADER) ?? 'unknown' };
}

export type SignInStart = { allowed: true; succeeded: () => void } | { allowed: false; retryAfterSeconds: number };

/** Counts a sign-in attempt, or refuses it; the first refusal of a lockout is audited. */
export async function beginSignIn(keys: SignInKeys): Promise<SignInStart> {
  const decision = throttle().begin(keys);
  if (decision.allowed) return { allowed: true, succeeded: () => throttle().succeeded(keys) };
  if (decision.locked.length > 0) {
    await recordAudit(await requestDb(), {
      actor: { id: null, email: keys.account.trim().toLowerCase().slice(0, 200) },
      action: 'auth.sign-in-throttled',
      subjectType: 'sign-in',
      subjectId: keys.account.trim().toLowerCase().slice(0, 200),
      after: { locked: decision.locked, address: keys.address, retryAfterSeconds: decision.retryAfterSeconds },
    });
  }
  return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds };
}

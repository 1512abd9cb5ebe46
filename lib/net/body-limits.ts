// How large a request body each route accepts. The web server refuses a larger declared
// Content-Length with 413 before the app reads a byte, and a body of unknown length on a route
// that takes one with 411: every browser and HTTP client sends the length of a JSON or form body.
const KIB = 1024;
const MIB = 1024 * KIB;

interface BodyLimit {
  /** Matches the request's method and path. */
  test: (method: string, pathname: string) => boolean;
  bytes: number;
  why: string;
}

const api = (prefix: string) => (method: string, pathname: string) => method !== 'GET' && pathname.startsWith(prefix);

// First match wins.
export const BODY_LIMITS: readonly BodyLimit[] = [
  { test: api('/api/auth/'), bytes: 16 * KIB, why: 'an email and a password' },
  { test: api('/api/v1/trainer/'), bytes: 64 * KIB, why: 'at most 256 rewards of a rollout group' },
  { test: api('/api/rubric/'), bytes: 1 * MIB, why: 'a rubric item with its executable check' },
  { test: api('/api/'), bytes: 256 * KIB, why: 'a comment, decision, label or flag (text fields of at most 20,000 characters)' },
  // Pages: server actions (forms). Next refuses more than 1 MB itself, but with a 500.
  { test: (method) => method !== 'GET' && method !== 'HEAD', bytes: 1 * MIB, why: 'a form' },
];

export function bodyLimitFor(method: string, pathname: string): number {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS') return 0;
  return BODY_LIMITS.find((limit) => limit.test(upper, pathname))?.bytes ?? 0;
}

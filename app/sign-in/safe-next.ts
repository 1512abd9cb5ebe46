// Where to go after signing in: only a path on this site, never another origin
// ("//evil.example" and "/\evil.example" are protocol-relative to a browser).
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/environments';
  }
  return value.startsWith('/sign-in') ? '/environments' : value;
}

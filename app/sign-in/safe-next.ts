// Where to go after signing in: only a path on this site, never another origin
// ("//evil.example" and "/\evil.example" are protocol-relative to a browser). The default is the
// home page, which sends each role where it may work.
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/';
  }
  return value.startsWith('/sign-in') ? '/' : value;
}

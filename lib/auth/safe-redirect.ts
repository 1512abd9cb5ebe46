// Where to send a browser after signing in: a path on this site, or the home page. Browsers
// drop tabs and newlines from URLs and treat "\" like "/", so "/\t/evil.example" and
// "/\evil.example" are other sites to them; control characters also cannot go into a Location
// header. So: no control characters or backslashes at all, and the path must resolve to this
// origin. The home page sends each role where it may work.
const ORIGIN = 'http://envolve.invalid';

export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2_000 || !value.startsWith('/')) return '/';
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point of this check
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  let resolved: URL;
  try {
    resolved = new URL(value, ORIGIN);
  } catch {
    return '/';
  }
  if (resolved.origin !== ORIGIN) return '/';
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path.startsWith('//') || path.startsWith('/sign-in') ? '/' : path;
}

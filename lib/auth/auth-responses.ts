// What better-auth's HTTP endpoints may hand a browser. Sessions live in httpOnly cookies; the
// session token in a JSON body would give any script on the page what the cookie flag withholds.
// A body is one session answer ({token, session: {token}}) or a list of sessions (list-sessions).
export function withoutSessionTokens(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutSessionTokens);
  if (!body || typeof body !== 'object') return body;
  const { token: _token, session, ...rest } = body as Record<string, unknown>;
  if (session && typeof session === 'object' && !Array.isArray(session)) {
    const { token: _sessionToken, ...sessionRest } = session as Record<string, unknown>;
    return { ...rest, session: sessionRest };
  }
  return session === undefined ? rest : { ...rest, session };
}

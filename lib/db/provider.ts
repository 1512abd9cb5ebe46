// Which database a URL names: `file:` is the embedded SQLite default, postgres(ql):// is PostgreSQL.
export type Provider = 'sqlite' | 'postgresql';

export function providerOf(url: string): Provider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), not '${url.replace(/:[^:@/]*@/, ':***@')}'`);
}

// prisma/schema.prisma is the one source schema (SQLite). Prisma cannot serve two providers from
// one file, so the PostgreSQL copy is derived from it by this text transform, never edited by hand.
export const POSTGRES_CLIENT_OUTPUT = '../lib/db/generated-pg';

const HEADER = '// GENERATED from prisma/schema.prisma by `npm run db:generate` / `npm run db:diff`; do not edit.\n';

export function postgresSchemaFrom(source: string): string {
  const withProvider = replaceOnce(source, /(datasource\s+db\s*\{[^}]*provider\s*=\s*)"sqlite"/, '$1"postgresql"', 'datasource provider "sqlite"');
  // Relative to the copy in prisma/postgresql/, as the source's is relative to prisma/.
  const withOutput = replaceOnce(
    withProvider,
    /(generator\s+client\s*\{[^}]*output\s*=\s*)"[^"]*"/,
    `$1"../${POSTGRES_CLIENT_OUTPUT}"`,
    'generator client output',
  );
  return HEADER + withOutput;
}

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) throw new Error(`prisma/schema.prisma: cannot find the ${what} to derive the PostgreSQL schema`);
  return text.replace(pattern, replacement);
}

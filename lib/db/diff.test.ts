import { describe, expect, it } from 'vitest';
import { diffMigrationsToSchema, latestPostgresSnapshot, postgresSchemaFile } from './migrate.ts';
import { readSchemaFile } from './migrations-dir.ts';

describe('diffMigrationsToSchema', () => {
  it('finds nothing to do: the committed migrations match prisma/schema.prisma', async () => {
    expect(await diffMigrationsToSchema(readSchemaFile())).toBeNull();
  });

  it('writes the SQL for a schema change', async () => {
    const schema = readSchemaFile();
    const changed = { ...schema, content: schema.content.replace(/model Job \{/, 'model Job {\n  note String?') };
    expect(await diffMigrationsToSchema(changed)).toContain('ALTER TABLE "Job" ADD COLUMN "note" TEXT;');
  });
});

describe('the PostgreSQL migrations', () => {
  it('lead to the PostgreSQL schema derived from prisma/schema.prisma (run npm run db:diff after a schema change)', () => {
    expect(latestPostgresSnapshot()?.content).toBe(postgresSchemaFile().content);
  });
});

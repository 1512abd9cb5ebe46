import { describe, expect, it } from 'vitest';
import { readSchemaFile } from './migrations-dir.ts';
import { postgresSchemaFrom } from './postgres-schema.ts';

describe('postgresSchemaFrom', () => {
  it('switches the provider and the client output, and keeps every model', () => {
    const source = readSchemaFile().content;
    const copy = postgresSchemaFrom(source);
    expect(copy).toMatch(/datasource db \{\s*provider = "postgresql"/);
    expect(copy).toContain('output                 = "../../lib/db/generated-pg"');
    expect(copy).not.toContain('"sqlite"');
    expect(copy.match(/^model \w+/gm)).toEqual(source.match(/^model \w+/gm));
  });

  it('refuses a source it cannot read', () => {
    expect(() => postgresSchemaFrom('generator client {}\n')).toThrow(/datasource provider "sqlite"/);
  });
});

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteAdapterFactory } from './sqlite.ts';

const root = mkdtempSync(path.join(tmpdir(), 'envolve-perms-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the SQLite file (session tokens must not sit in a world-readable file)', () => {
  it('is created readable by its owner only, in a directory only its owner may enter', async () => {
    const file = path.join(root, 'data', 'envolve.db');
    const adapter = await sqliteAdapterFactory(`file:${file}`).connect();
    await adapter.executeScript('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    await adapter.dispose();
  });
});

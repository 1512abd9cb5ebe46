// The migration that moves lineages gated by oracle or nop to trainer groups: its data statements,
// read from the committed migration file of the provider under test, run on a database holding
// such a lineage (a fresh test database has none when its migrations run).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { seedLineage } from '../../test/fixtures/lineage-rows.ts';
import type { Db } from '../db/client.ts';
import { MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import type { Provider } from '../db/provider.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';

const MIGRATION = '20261202200614_policy_gate_trainer';

function dataStatements(provider: Provider): string[] {
  const dir = provider === 'postgresql' ? POSTGRES_MIGRATIONS_DIR : MIGRATIONS_DIR;
  const sql = readFileSync(path.join(dir, MIGRATION, 'migration.sql'), 'utf8');
  const data = sql.slice(sql.indexOf('-- Data:'));
  return data
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s.replace(/^--.*$/gm, '').trim() !== '');
}

async function lineage(db: Db, name: string, probePolicy: string | null, states: string[]) {
  const { lineageId, seedVersionId: seed } = await seedLineage(db, { name, generations: 0, attempts: 0, columns: { probePolicy, frontier: states.length } });
  for (const [i, state] of states.entries()) {
    const versionId = await seedEnvironment(db, { name: `${name}-g${i + 1}` });
    await db.generation.create({
      data: {
        lineageId,
        number: i + 1,
        parentVersionId: seed,
        versionId,
        axis: 'length',
        effort: 'low',
        state,
        releasedByPolicy: probePolicy,
        releaseRule: '{}',
      },
    });
  }
  return { id: lineageId };
}

fileDbTest(
  'moves oracle- and nop-gated lineages to trainer, withdraws their releases and says so in the audit log; others are untouched',
  async ({ db, testDb }) => {
    const oracle = await lineage(db, 'oracle-gated', 'oracle', ['released', 'released']);
    const nop = await lineage(db, 'nop-gated', 'nop', []);
    const openai = await lineage(db, 'openai-gated', 'openai', ['released']);
    const byDefault = await lineage(db, 'default-gated', null, []);
    for (const statement of dataStatements(testDb.provider)) await db.$executeRawUnsafe(statement);

    const after = await db.lineage.findMany({ where: { id: { in: [oracle.id, nop.id, openai.id, byDefault.id] } }, orderBy: { name: 'asc' } });
    expect(after.map((l) => [l.name, l.probePolicy, l.frontier])).toEqual([
      ['default-gated', null, 0],
      ['nop-gated', 'trainer', 0],
      ['openai-gated', 'openai', 1],
      ['oracle-gated', 'trainer', 0],
    ]);
    const generations = await db.generation.findMany({
      where: { lineageId: { in: [oracle.id, openai.id] } },
      orderBy: [{ lineageId: 'asc' }, { number: 'asc' }],
    });
    expect(generations.map((g) => [g.lineageId === oracle.id ? 'oracle' : 'openai', g.number, g.state, g.releasedByPolicy, g.revision])).toEqual(
      expect.arrayContaining([
        ['oracle', 1, 'approved', null, 1],
        ['oracle', 2, 'approved', null, 1],
        ['openai', 1, 'released', 'openai', 0],
      ]),
    );
    const audit = await db.auditEvent.findMany({ where: { action: 'lineage.gate', subjectId: { in: [oracle.id, nop.id, openai.id, byDefault.id] } } });
    expect(audit.map((a) => [a.subjectId, JSON.parse(a.before!).policy, JSON.parse(a.after!).policy]).sort()).toEqual(
      [
        [oracle.id, 'oracle', 'trainer'],
        [nop.id, 'nop', 'trainer'],
      ].sort(),
    );
    expect(audit[0]!.actorEmail).toBe(`migration:${MIGRATION}`);
    expect(JSON.parse(audit[0]!.after!).reason).toMatch(/cannot gate a lineage/);
    // The timestamps it wrote read back as dates of this run.
    expect(Math.abs(audit[0]!.createdAt.getTime() - Date.now())).toBeLessThan(24 * 3600 * 1000);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: oracle.id } })).updatedAt.getTime()).toBeGreaterThanOrEqual(audit[0]!.createdAt.getTime() - 1000);
  },
);

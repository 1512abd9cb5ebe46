// Per-lineage reference priors and the checks `envolve evolve` makes before it writes a lineage
// row: through the real CLI on a real test database, Claude without an API key and a
// fitted table that is not stored both fail with no Lineage row left; in the library, a lineage
// made with a stored fitted table records it, reports it, measures D with it, refuses a silent
// switch when continued, and a lead's switch is audited.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { difficulty, fitPriors, REFERENCE_TABLE, resolvePriors, storeFittedPriors, tablePriors } from '../../lib/difficulty/index.ts';
import { findOrCreateLineage, lineagePriors, lineageReport, setLineagePriors } from '../../lib/evolution/index.ts';
import { lineagePriorsTable, measure } from '../../lib/evolution/difficulty-gate.ts';
import { parseSequence } from '../../lib/sequence/index.ts';
import { storeProceduralSeed } from './helpers.ts';

let testDb: TestDb;
let seed: string;
beforeAll(async () => {
  testDb = await createTestDb();
  seed = await storeProceduralSeed(testDb.db, 5, 'priors-seed');
});
afterAll(async () => testDb.cleanup());

function envolve(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: testDb.url };
  delete env.ANTHROPIC_API_KEY;
  return spawnSync(process.execPath, ['bin/envolve.mjs', ...args], { env, encoding: 'utf8' });
}

const settings = { axisPolicy: { kind: 'fixed', axis: 'length' }, effort: 'low', synthesiser: 'procedural', seed: 3 } as const;
const lead = { id: null, email: 'lead@example.com' };

describe('envolve evolve checks before it writes a lineage row', () => {
  it('--synth anthropic without an API key fails and leaves no Lineage row', async () => {
    const cli = envolve('evolve', seed, '--synth', 'anthropic', '--axis', 'length', '--json');
    expect(cli.status).not.toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: false, error: expect.stringMatching(/needs an API key: set ANTHROPIC_API_KEY/) });
    expect(await testDb.db.lineage.count()).toBe(0);
  });

  it('--priors naming a fitted table that is not stored fails and leaves no Lineage row', async () => {
    const cli = envolve('evolve', seed, '--axis', 'length', '--priors', 'fit-000000000000', '--json');
    expect(cli.status).not.toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: false, error: expect.stringMatching(/reference priors fit-000000000000 are not stored/) });
    expect(await testDb.db.lineage.count()).toBe(0);
  });
});

describe('a lineage with fitted priors', () => {
  it('records the table, reports it, measures D with it, refuses a silent switch, and audits a lead switching it', async () => {
    const version = await testDb.db.environmentVersion.findUniqueOrThrow({ where: { id: seed } });
    const sequence = parseSequence((JSON.parse(version.metadata) as { sequence: unknown }).sequence);
    // A corpus that leans hard on the seed's own names, so the fitted table prices them differently.
    const corpus = Array.from({ length: 6 }, (_, i) => ({ name: `corpus-${i}`, versionId: `c${i}`, sequence }));
    const fitted = fitPriors(corpus, REFERENCE_TABLE);
    await storeFittedPriors(testDb.db, fitted);

    const lineage = await findOrCreateLineage(testDb.db, seed, settings, undefined, undefined, fitted.table.version);
    expect(lineage.row.priorsVersion).toBe(fitted.table.version);
    const report = await lineageReport(testDb.db, lineage.row.id);
    expect(report.priors).toMatchObject({ version: fitted.table.version, fitted: true, description: expect.stringMatching(/from 6 environments/) });

    const table = await lineagePriorsTable(testDb.db, lineage.row);
    const ctx = { db: testDb.db } as Parameters<typeof measure>[0];
    const underLineage = await measure(ctx, sequence, table);
    const underShipped = difficulty(sequence, await resolvePriors(testDb.db, sequence, undefined, REFERENCE_TABLE));
    expect(underLineage.model).toBe(fitted.table.version);
    expect(underLineage.total).toBeCloseTo(difficulty(sequence, tablePriors(fitted.table)).total, 12);
    // Seen six times, the seed's names are commoner under the fit: its D is lower.
    expect(underLineage.total).toBeLessThan(underShipped.total);

    await expect(findOrCreateLineage(testDb.db, seed, settings, undefined, undefined, 'reference')).rejects.toThrow(
      /measures D under fit-[0-9a-f]{12}, not the shipped reference table; change it with `envolve lineage priors/,
    );

    const switched = await setLineagePriors(testDb.db, lead, lineage.row.id, { priors: 'reference' });
    expect(switched.priorsVersion).toBeNull();
    expect(await lineagePriors(testDb.db, switched)).toMatchObject({ version: REFERENCE_TABLE.version, fitted: false });
    const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { subjectId: lineage.row.id, action: 'lineage.priors' } });
    expect(JSON.parse(audit.before!)).toEqual({ priors: fitted.table.version });
    expect(JSON.parse(audit.after!)).toEqual({ priors: REFERENCE_TABLE.version });
    await expect(setLineagePriors(testDb.db, lead, lineage.row.id, { priors: 'payments' })).rejects.toThrow(/priors must be "reference"/);
  });
});

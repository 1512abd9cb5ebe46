// An imported seed described by a reviewer: its sequence comes from the reference names, it gets
// a real D offline (not the smoothed prior every opaque import shares), the change is versioned
// and audited, and it still lengthens offline, the new step consuming the described chain's end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { readStoredDifficulty, requireKnownDifficulty } from '../../lib/difficulty/index.ts';
import { importPath } from '../../lib/env/import.ts';
import { describeImportedSeed, evolveLineage, findOrCreateLineage, lineageReport, parseSequenceSpec } from '../../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import type { Sequence } from '../../lib/sequence/types.ts';
import { ProceduralSynthesiser, SandboxArtifactSource } from '../../lib/synth/procedural/index.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
const reviewer = { id: null, email: 'cli:tester' };

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

describe('describing an imported seed', () => {
  it('gives it a real D, versioned and audited, and it still lengthens offline', async () => {
    const { db } = testDb;
    const imported = await importPath(db, 'examples/tasks');
    const access = imported.find((r) => r.name === 'access-log-report');
    const payments = imported.find((r) => r.name === 'payments-reconciliation');
    expect(access!.ok && payments!.ok).toBe(true);

    const first = await describeImportedSeed(db, access!.versionId!, parseSequenceSpec('web-access-log:grep-regex, web-access-log:sort-uniq-count'), reviewer);
    const second = await describeImportedSeed(
      db,
      payments!.versionId!,
      parseSequenceSpec('payments-ledger:sqlite-sql,payments-ledger:join-tables,payments-ledger:bc-arithmetic'),
      reviewer,
    );
    expect(first.revision).toBe(1);
    expect(first.sequence.steps.map((s) => s.origin)).toEqual(['imported', 'imported']);
    // Two different tasks, two different difficulties (an opaque import would give both the same).
    expect(second.difficulty.total).not.toBeCloseTo(first.difficulty.total, 3);
    expect(first.difficulty.depth).toBe(2);
    expect(first.difficulty.smoothed).toEqual([]);
    const stored = requireKnownDifficulty(
      readStoredDifficulty(await db.environmentVersion.findUniqueOrThrow({ where: { id: access!.versionId! } })),
      'the described seed',
    );
    expect(stored.total).toBeCloseTo(first.difficulty.total, 9);

    const again = await describeImportedSeed(db, access!.versionId!, parseSequenceSpec('web-access-log:awk-fields,web-access-log:sort-uniq-count'), reviewer);
    expect(again.revision).toBe(2);
    const audits = await db.auditEvent.findMany({ where: { subjectId: access!.versionId!, action: 'environment.sequence' }, orderBy: { createdAt: 'asc' } });
    expect(audits).toHaveLength(2);
    expect(JSON.parse(audits[1]!.before!).sequence.steps[0].skill).toBe('grep-regex');
    expect(JSON.parse(audits[1]!.after!).revision).toBe(2);

    await expect(describeImportedSeed(db, access!.versionId!, parseSequenceSpec('web-access-log:ffmpeg'), reviewer)).rejects.toThrow(
      /"ffmpeg" is not a reference skill/,
    );
    const procedural = await storeProceduralSeed(db, 5, 'rendered');
    await expect(describeImportedSeed(db, procedural, parseSequenceSpec('web-access-log:awk-fields'), reviewer)).rejects.toThrow(
      /rendered by the procedural synthesiser/,
    );

    const lineage = await findOrCreateLineage(db, access!.versionId!, {
      axisPolicy: { kind: 'fixed', axis: 'length' },
      effort: 'low',
      synthesiser: 'procedural',
      seed: 3,
    });
    const synthesiser = new ProceduralSynthesiser({ artifactSource: new SandboxArtifactSource(sandbox) });
    const log: string[] = [];
    const result = await evolveLineage(context(db, sandbox, synthesiser, log), lineage.row.id, 1);
    expect(result.validated, log.join('\n')).toHaveLength(1);
    const [generation] = (await lineageReport(db, lineage.row.id)).generations;
    const child = generation!.sequence as Sequence;
    expect(child.steps.slice(0, 2)).toEqual(again.sequence.steps);
    expect(child.steps[2]!.dependsOn).toEqual(['s2']);
    expect(generation!.difficulty!.depth).toBe(3);
    expect(generation!.verdicts.oracle).toMatchObject({ verdict: 'passed', reward: 1 });
    await expect(describeImportedSeed(db, access!.versionId!, parseSequenceSpec('web-access-log:awk-fields'), reviewer)).rejects.toThrow(/already evolved/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { homeWork } from './home.ts';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';

let testDb: TestDb;
let db: Db;
const generationIds: string[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  const seedVersionId = await seedEnvironment(db, { name: 'seed' });
  await db.user.create({ data: { id: 'u-rae', email: 'rae@x.test', name: 'Rae' } });
  const lineage = await db.lineage.create({
    data: { name: 'logs', seedVersionId, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
  });
  for (const number of [1, 2]) {
    const g = await db.generation.create({
      data: {
        lineageId: lineage.id,
        number,
        parentVersionId: seedVersionId,
        versionId: seedVersionId,
        axis: 'length',
        effort: 'low',
        state: 'awaiting-review',
        revision: 1,
        updatedAt: new Date(Date.UTC(2020, 0, number)),
      },
    });
    generationIds.push(g.id);
  }
  await db.missedIssue.create({
    data: { generationId: generationIds[0]!, reporterId: 'u-rae', title: 'missed', description: 'd', severity: 'low', validatorKind: 'rubric' },
  });
});
afterAll(() => testDb.cleanup());

describe('homeWork', () => {
  it('gives a reviewer the queue count, the first generation waiting for them and the open missed issues', async () => {
    const work = await homeWork(db, { id: 'u-rae', role: 'reviewer' });
    expect(work.review).toEqual({ awaiting: 2, next: { generationId: generationIds[0], lineageName: 'logs', number: 1 }, openMissedIssues: 1 });
    expect(work.labelling).toBeNull();
    expect(work.lead).toBeNull();
    expect(work.trainerApi).toBe(false);
  });

  it('gives a trainer only the API how-to, an annotator only labelling, a lead alerts and issues to convert', async () => {
    expect(await homeWork(db, { id: 'u-t', role: 'trainer' })).toEqual({ review: null, labelling: null, lead: null, trainerApi: true });
    expect(await homeWork(db, { id: 'u-a', role: 'annotator' })).toMatchObject({ review: null, lead: null, labelling: { sets: [], remaining: 0 } });
    const lead = await homeWork(db, { id: 'u-l', role: 'lead' });
    expect(lead.lead).toMatchObject({ compromisedVersions: 0, missedIssuesToConvert: 1 });
    expect(Array.isArray(lead.lead?.alerts)).toBe(true);
  });
});

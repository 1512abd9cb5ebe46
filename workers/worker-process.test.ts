// The reaper's lease question, as the worker answers it from its database: a container whose job
// this database never had belongs to another deployment sharing the engine and is left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../test/fixtures/db.ts';
import { enqueue } from '../lib/queue/enqueue.ts';
import { leaseHeldIn } from './worker-process.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb.cleanup();
});

describe('the lease a sandbox container was started under', () => {
  it("is another deployment's to judge when this database has no such job", async () => {
    expect(await leaseHeldIn(testDb.db)({ 'envolve.job': 'job-of-another-deployment', 'envolve.lease': 'w1:1' })).toBe(true);
  });

  it('is lost when the job is here but no longer running under that lease', async () => {
    const job = await enqueue(testDb.db, 'validate', { versionId: 'v1' });
    expect(await leaseHeldIn(testDb.db)({ 'envolve.job': job.id, 'envolve.lease': 'w1:1' })).toBe(false);
  });
});

// Choosing the policy that gates a lineage, through the real route guard and the real CLI on a real
// test database: oracle and nop are refused with the reason (422; the CLI exits 2), a change that
// withdraws releases is refused naming them until confirmed, and a new lineage is gated by trainer.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { createApiToken, createUser } from '../../lib/auth/users.ts';
import { findOrCreateLineage } from '../../lib/evolution/lineage.ts';
import { seedEnvironment } from '../fixtures/dashboard-rows.ts';

const holder = vi.hoisted(() => ({ db: null as unknown }));
vi.mock('@/app/_server/db.ts', () => ({ requestDb: async () => holder.db }));

const { PATCH } = await import('../../app/api/lineages/[id]/gate/route.ts');

let testDb: TestDb;
let lineageId: string;
let token: string;

beforeAll(async () => {
  testDb = await createTestDb();
  holder.db = testDb.db;
  const user = await createUser(testDb.db, { email: 'lead@gate.test', name: 'lead', role: 'lead', password: 'a long test password' });
  token = (await createApiToken(testDb.db, user.id, 'test')).token;
  const seed = await seedEnvironment(testDb.db, { name: 'gate-route' });
  lineageId = (await findOrCreateLineage(testDb.db, seed, { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 1 })).row.id;
});
afterAll(async () => testDb.cleanup());

function patch(body: unknown) {
  const request = new Request(`http://127.0.0.1:3000/api/lineages/${lineageId}/gate`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return PATCH(request, { params: Promise.resolve({ id: lineageId }) });
}

describe('the policy that gates a lineage', () => {
  it('is trainer for a new lineage made outside demo mode', async () => {
    expect((await testDb.db.lineage.findUniqueOrThrow({ where: { id: lineageId } })).probePolicy).toBe('trainer');
  });

  it('cannot be oracle: the route answers 422 with the reason', async () => {
    const response = await patch({ probePolicy: 'oracle' });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: 'gate_policy_refused',
      message: expect.stringMatching(/^oracle cannot gate a lineage: .*passes every time/),
    });
    expect((await testDb.db.lineage.findUniqueOrThrow({ where: { id: lineageId } })).probePolicy).toBe('trainer');
  });

  it('cannot be oracle: `envolve lineage gate ID --policy oracle` exits 2 with the reason', () => {
    const cli = spawnSync(process.execPath, ['bin/envolve.mjs', 'lineage', 'gate', lineageId, '--policy', 'oracle'], {
      env: { ...process.env, DATABASE_URL: testDb.url },
      encoding: 'utf8',
    });
    expect(cli.stderr).toMatch(/^envolve: oracle cannot gate a lineage: the oracle runs the reference solution, which passes every time/m);
    expect(cli.status).toBe(2);
  });

  it('asks for confirmation, naming what it withdraws, before a change that withdraws releases', async () => {
    const db = testDb.db;
    const lineage = await db.lineage.findUniqueOrThrow({ where: { id: lineageId } });
    const versionId = await seedEnvironment(db, { name: 'gate-route-g1' });
    await db.generation.create({
      data: {
        lineageId,
        number: 1,
        parentVersionId: lineage.seedVersionId,
        versionId,
        axis: 'length',
        effort: 'low',
        state: 'released',
        releasedByPolicy: 'trainer',
      },
    });
    await db.lineage.update({ where: { id: lineageId }, data: { frontier: 1 } });
    const refused = await patch({ probePolicy: 'openai' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: 'confirm_withdrawal', message: expect.stringContaining('withdraws the release of G1') });
    const confirmed = await patch({ probePolicy: 'openai', confirmWithdrawal: true });
    expect(confirmed.status).toBe(200);
    const { result } = await confirmed.json();
    expect(result).toMatchObject({ frontier: 0, steps: [{ kind: 'needs-probe', generation: 0 }], probeJobId: expect.any(String) });
  });
});

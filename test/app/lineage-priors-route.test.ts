// GET and PATCH /api/lineages/:id/priors through the real guard (API tokens) and a real test
// database: readers see which table the lineage's D is measured under and the choices; a role
// that may not configure lineages is refused; a fitted version that is not stored is refused and
// changes nothing; a lead's choice is stored, audited, and shown by the tree the lineage page reads.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { createApiToken, createUser } from '../../lib/auth/users.ts';
import { getLineageTree } from '../../lib/dashboard/index.ts';
import { fitPriors, REFERENCE_TABLE, storeFittedPriors } from '../../lib/difficulty/index.ts';
import { findOrCreateLineage } from '../../lib/evolution/lineage.ts';
import { DEFAULT_SCHEDULER_CONFIG } from '../../lib/scheduler/config.ts';
import { seedEnvironment } from '../fixtures/dashboard-rows.ts';

const holder = vi.hoisted(() => ({ db: null as unknown }));
vi.mock('@/app/_server/db.ts', () => ({ requestDb: async () => holder.db }));

const { GET, PATCH } = await import('../../app/api/lineages/[id]/priors/route.ts');

let testDb: TestDb;
let lineageId: string;
let fitted: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  testDb = await createTestDb();
  holder.db = testDb.db;
  for (const role of ['lead', 'reviewer'] as const) {
    const user = await createUser(testDb.db, { email: `${role}@priors.test`, name: role, role, password: 'a long test password' });
    tokens[role] = (await createApiToken(testDb.db, user.id, 'test')).token;
  }
  const seed = await seedEnvironment(testDb.db, { name: 'priors-route' });
  lineageId = (await findOrCreateLineage(testDb.db, seed, { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 1 })).row.id;
  const sequence = { steps: [{ id: 's1', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: [] }] };
  const fit = fitPriors([{ name: 'corpus', versionId: 'c1', sequence }], REFERENCE_TABLE);
  await storeFittedPriors(testDb.db, fit);
  fitted = fit.table.version;
});
afterAll(async () => testDb.cleanup());

const url = (id: string) => `http://127.0.0.1:3000/api/lineages/${id}/priors`;
const get = (role: string) =>
  GET(new Request(url(lineageId), { headers: { authorization: `Bearer ${tokens[role]}` } }), { params: Promise.resolve({ id: lineageId }) });
const patch = (role: string, body: string) =>
  PATCH(new Request(url(lineageId), { method: 'PATCH', headers: { authorization: `Bearer ${tokens[role]}`, 'content-type': 'application/json' }, body }), {
    params: Promise.resolve({ id: lineageId }),
  });
const stored = async () => (await testDb.db.lineage.findUniqueOrThrow({ where: { id: lineageId } })).priorsVersion;

describe('/api/lineages/:id/priors', () => {
  it('tells a reader the shipped table and the choices', async () => {
    const response = await get('reviewer');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      lineageId,
      priors: { version: REFERENCE_TABLE.version, fitted: false, choices: [{ version: REFERENCE_TABLE.version }, { version: fitted }] },
    });
  });

  it('refuses a reviewer with 403 and a missing fitted version with 404, changing nothing', async () => {
    const refused = await patch('reviewer', JSON.stringify({ priors: fitted }));
    expect(refused.status).toBe(403);
    const missing = await patch('lead', '{"priors":"fit-000000000000"}');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toMatch(/fit-000000000000 are not stored/);
    expect(await stored()).toBeNull();
  });

  it("stores a lead's fitted choice, audited, and the lineage page's tree reports it", async () => {
    const chosen = await patch('lead', JSON.stringify({ priors: fitted }));
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toMatchObject({
      priors: { version: fitted, fitted: true, description: expect.stringMatching(/^fitted .* from 1 environments/) },
    });
    expect(await stored()).toBe(fitted);
    const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { action: 'lineage.priors', subjectId: lineageId } });
    expect(audit).toMatchObject({ actorEmail: 'lead@priors.test' });
    const tree = await getLineageTree(testDb.db, lineageId, { config: DEFAULT_SCHEDULER_CONFIG });
    expect(tree!.priors).toMatchObject({ version: fitted, fitted: true });
  });
});

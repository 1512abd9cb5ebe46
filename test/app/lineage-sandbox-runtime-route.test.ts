// PATCH /api/lineages/:id/sandbox-runtime through the real guard (API tokens) and a real test
// database: a role that may not configure lineages is refused, a runtime that does not exist is a
// 400 naming the field, and a lead's change is stored and audited.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { createApiToken, createUser } from '../../lib/auth/users.ts';
import { findOrCreateLineage, loadLineage } from '../../lib/evolution/lineage.ts';
import { seedEnvironment } from '../fixtures/dashboard-rows.ts';

const holder = vi.hoisted(() => ({ db: null as unknown }));
vi.mock('@/app/_server/db.ts', () => ({ requestDb: async () => holder.db }));

const { PATCH } = await import('../../app/api/lineages/[id]/sandbox-runtime/route.ts');

let testDb: TestDb;
let lineageId: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  testDb = await createTestDb();
  holder.db = testDb.db;
  for (const role of ['lead', 'reviewer'] as const) {
    const user = await createUser(testDb.db, { email: `${role}@runtime.test`, name: role, role, password: 'a long test password' });
    tokens[role] = (await createApiToken(testDb.db, user.id, 'test')).token;
  }
  const seed = await seedEnvironment(testDb.db, { name: 'runtime-route' });
  lineageId = (await findOrCreateLineage(testDb.db, seed, { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 1 })).row.id;
});
afterAll(async () => testDb.cleanup());

function patch(role: string, body: string, id = lineageId) {
  const request = new Request(`http://127.0.0.1:3000/api/lineages/${id}/sandbox-runtime`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${tokens[role]}`, 'content-type': 'application/json' },
    body,
  });
  return PATCH(request, { params: Promise.resolve({ id }) });
}

describe('PATCH /api/lineages/:id/sandbox-runtime', () => {
  it('refuses a reviewer with 403 and changes nothing', async () => {
    const response = await patch('reviewer', '{"sandboxRuntime":"runc"}');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'forbidden', message: 'the reviewer role may not lineage.configure' });
    expect((await loadLineage(testDb.db, lineageId)).settings.sandboxRuntime).toBeUndefined();
  });

  it('answers a runtime that does not exist with a 400 naming the field', async () => {
    const response = await patch('lead', '{"sandboxRuntime":"kata"}');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/^sandboxRuntime: /);
    expect((await loadLineage(testDb.db, lineageId)).settings.sandboxRuntime).toBeUndefined();
  });

  it("stores a lead's choice, audited, and null returns the lineage to the deployment's default", async () => {
    const chosen = await patch('lead', '{"sandboxRuntime":"runsc"}');
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toEqual({ lineageId, sandboxRuntime: { runtime: 'runsc', source: 'lineage' } });
    expect((await loadLineage(testDb.db, lineageId)).settings.sandboxRuntime).toBe('runsc');
    const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { action: 'lineage.sandbox-runtime', subjectId: lineageId } });
    expect(audit).toMatchObject({ actorEmail: 'lead@runtime.test' });
    expect(JSON.parse(audit.before ?? 'null')).toEqual({ sandboxRuntime: null });
    expect(JSON.parse(audit.after ?? 'null')).toEqual({ sandboxRuntime: 'runsc' });

    const reset = await patch('lead', '{"sandboxRuntime":null}');
    expect(((await reset.json()) as { sandboxRuntime: { source: string } }).sandboxRuntime.source).toBe('deployment');
    expect((await loadLineage(testDb.db, lineageId)).settings.sandboxRuntime).toBeUndefined();
  });

  it('answers an unknown lineage with a 404', async () => {
    expect((await patch('lead', '{"sandboxRuntime":"runc"}', 'c'.repeat(25))).status).toBe(404);
  });
});

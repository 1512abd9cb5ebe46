// Accounts for the missed-issue tests: one user per role, stored so audit rows name them.
import type { Db } from '../../lib/db/client.ts';
import type { Actor } from '../../lib/auth/actor.ts';

export async function makeUser(db: Db, role: string): Promise<Actor> {
  const email = `${role}@test.envolve`;
  const user = await db.user.upsert({ where: { email }, create: { id: `user-${role}`, name: role, email, role }, update: {} });
  return { id: user.id, email: user.email, role: user.role };
}

import { describe, expect } from 'vitest';
import { dbTest } from '../../test/fixtures/test.ts';
import { createAuth } from './better-auth.ts';
import { DEMO_USERS, seedAccounts } from './seed-accounts.ts';
import { listUsers } from './users.ts';

describe('the accounts setup makes', () => {
  dbTest('creates a first admin with a generated password that signs in, and the demo users, once', async ({ db }) => {
    const created = await seedAccounts(db, { demo: true });
    expect(created.map((a) => a.email)).toEqual(['admin@envolve.local', ...DEMO_USERS.map((u) => u.email)]);
    const admin = created[0];
    expect(admin?.generatedPassword).toMatch(/^[\w-]{20}$/);

    const auth = createAuth(db, { secret: 'a-test-secret-of-thirty-two-characters', baseURL: 'http://localhost' });
    const signedIn = await auth.api.signInEmail({ body: { email: 'admin@envolve.local', password: admin?.generatedPassword ?? '' } });
    expect(signedIn.user.email).toBe('admin@envolve.local');

    expect(await seedAccounts(db, { demo: true })).toEqual([]);
    expect(await listUsers(db)).toHaveLength(1 + DEMO_USERS.length);
  });

  dbTest('takes the first admin from the environment when given', async ({ db }) => {
    const created = await seedAccounts(db, { adminEmail: 'ops@example.test', adminPassword: 'from the environment' });
    expect(created).toEqual([{ email: 'ops@example.test', role: 'admin', generatedPassword: null }]);
  });
});

// The accounts `envolve setup` makes: a first admin when there is no user at all, and with
// the demo one user per role. Passwords given by nobody are generated and returned once, for
// the caller to print; nothing keeps them in plaintext.
import type { Db } from '../db/index.ts';
import type { Role } from './roles.ts';
import { countUsers, createUser, findUserByEmail, generatePassword } from './users.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@envolve.local';

export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: 'lead@envolve.local', name: 'Demo Lead', role: 'lead' },
  { email: 'reviewer@envolve.local', name: 'Demo Reviewer', role: 'reviewer' },
  { email: 'reviewer2@envolve.local', name: 'Second Reviewer', role: 'reviewer' },
  { email: 'annotator@envolve.local', name: 'Demo Annotator', role: 'annotator' },
  { email: 'trainer@envolve.local', name: 'Demo Trainer', role: 'trainer' },
];

export interface SeededAccount {
  email: string;
  role: Role;
  /** Only when it was generated here: the one time anyone sees it. */
  generatedPassword: string | null;
}

export interface SeedAccountsOptions {
  adminEmail?: string;
  adminPassword?: string;
  demo?: boolean;
}

export async function seedAccounts(db: Db, options: SeedAccountsOptions): Promise<SeededAccount[]> {
  const created: SeededAccount[] = [];
  if ((await countUsers(db)) === 0) {
    const email = options.adminEmail || DEFAULT_ADMIN_EMAIL;
    const generatedPassword = options.adminPassword ? null : generatePassword();
    await createUser(db, { email, name: 'Admin', role: 'admin', password: options.adminPassword || (generatedPassword as string) });
    created.push({ email, role: 'admin', generatedPassword });
  }
  if (options.demo) {
    for (const demo of DEMO_USERS) {
      if (await findUserByEmail(db, demo.email)) continue;
      const password = generatePassword();
      await createUser(db, { ...demo, password });
      created.push({ email: demo.email, role: demo.role, generatedPassword: password });
    }
  }
  return created;
}

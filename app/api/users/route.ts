// The accounts as JSON, for admins (and their API tokens).
import { route } from '@/app/_server/route.ts';
import { listUsers } from '@/lib/auth/index.ts';

export const GET = route({ permission: 'users.manage' }, async ({ db }) => ({ users: await listUsers(db) }));

import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { formatTimestamp } from '@/lib/dashboard/index.ts';
import { listUsers } from '@/lib/auth/index.ts';
import { ActivationForm } from './activation-form.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';
import { CreateUserForm } from './create-user-form.tsx';
import { RoleForm } from './role-form.tsx';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  await requirePermission('users.manage');
  const users = await listUsers(await requestDb());
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Users</h1>
        <p className="text-sm text-zinc-500">Accounts, their roles, and whether they may sign in. Every change is recorded in the audit log.</p>
      </div>
      <CreateUserForm />
      <table className="w-full rounded-lg border border-zinc-200 bg-white text-sm">
        <thead className="border-b border-zinc-100 text-left text-xs text-zinc-500">
          <tr>
            <th className="px-4 py-2 font-medium">Email</th>
            <th className="px-4 py-2 font-medium">Name</th>
            <th className="px-4 py-2 font-medium">Role</th>
            <th className="px-4 py-2 font-medium">Created</th>
            <th className="px-4 py-2 font-medium">Account</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} data-testid="user-row" className="border-b border-zinc-100 last:border-0">
              <td className="px-4 py-2 font-mono text-xs">{user.email}</td>
              <td className="px-4 py-2">{user.name}</td>
              <td className="px-4 py-2">
                <RoleForm userId={user.id} email={user.email} role={user.role} />
              </td>
              <td className="px-4 py-2 text-zinc-500">{formatTimestamp(user.createdAt.toISOString())}</td>
              <td className="px-4 py-2">
                <div className="flex items-center gap-2">
                  {user.deactivatedAt && <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600">deactivated</span>}
                  <ActivationForm userId={user.id} email={user.email} active={!user.deactivatedAt} />
                  <ResetPasswordForm userId={user.id} email={user.email} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

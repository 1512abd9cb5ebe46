import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { formatTimestamp } from '@/lib/dashboard/index.ts';
import { listUsers, type UserSummary } from '@/lib/auth/index.ts';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { ActivationForm } from './activation-form.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';
import { CreateUserForm } from './create-user-form.tsx';
import { RoleForm } from './role-form.tsx';

export const metadata: Metadata = { title: 'Users' };

const COLUMNS: Column<UserSummary>[] = [
  { header: 'Email', sort: { key: 'email', value: (user) => user.email }, className: 'font-mono text-xs', cell: (user) => user.email },
  { header: 'Name', sort: { key: 'name', value: (user) => user.name }, cell: (user) => user.name },
  { header: 'Role', sort: { key: 'role', value: (user) => user.role }, cell: (user) => <RoleForm userId={user.id} email={user.email} role={user.role} /> },
  {
    header: 'Created',
    sort: { key: 'created', value: (user) => user.createdAt },
    className: 'text-zinc-500',
    cell: (user) => formatTimestamp(user.createdAt.toISOString()),
  },
  {
    header: 'Account',
    sort: { key: 'active', value: (user) => (user.deactivatedAt ? 'deactivated' : 'active') },
    cell: (user) => (
      <div className="flex items-center gap-2">
        {user.deactivatedAt && <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600">deactivated</span>}
        <ActivationForm userId={user.id} email={user.email} active={!user.deactivatedAt} />
        <ResetPasswordForm userId={user.id} email={user.email} />
      </div>
    ),
  },
];

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('users.manage');
  const users = await listUsers(await requestDb());
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Users</h1>
        <p className="text-sm text-zinc-500">Accounts, their roles, and whether they may sign in. Every change is recorded in the audit log.</p>
      </div>
      <CreateUserForm />
      <DataTable
        label="Users"
        columns={COLUMNS}
        rows={users}
        rowKey={(user) => user.id}
        rowProps={() => ({ 'data-testid': 'user-row' })}
        url={{ path: '/admin/users', params: await searchParams }}
        defaultSort={{ key: 'created', dir: 'asc' }}
        noun="users"
      />
    </div>
  );
}

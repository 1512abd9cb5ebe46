import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { listOwnApiTokens, TOKEN_NAME_MAX } from '@/lib/auth/index.ts';
import { formatTimestamp } from '@/lib/dashboard/index.ts';
import { releasesOfToken, tokenReleasesText } from '@/lib/scheduler/index.ts';
import { DataTable, type Column } from '../_components/data-table.tsx';
import { CreateTokenForm } from './create-token-form.tsx';
import { RevokeTokenButton } from './revoke-token-button.tsx';

export const metadata: Metadata = { title: 'API tokens' };

const when = (date: Date | null, none: string) => (date ? formatTimestamp(date.toISOString()) : none);

type Token = Awaited<ReturnType<typeof listOwnApiTokens>>[number] & { releases: string | null };

const COLUMNS: Column<Token>[] = [
  { header: 'Name', sort: { key: 'name', value: (token) => token.name }, className: 'font-medium', cell: (token) => token.name },
  {
    header: 'Reports for',
    sort: { key: 'policies', value: (token) => token.policies.join(',') },
    className: 'font-mono text-xs',
    cell: (token) => <span data-testid="token-policies">{token.policies.join(', ')}</span>,
  },
  {
    header: 'Created',
    sort: { key: 'created', value: (token) => token.createdAt, firstDir: 'desc' },
    className: 'tabular-nums text-zinc-600',
    cell: (token) => when(token.createdAt, '—'),
  },
  {
    header: 'Last used',
    sort: { key: 'used', value: (token) => token.lastUsedAt, firstDir: 'desc' },
    className: 'tabular-nums text-zinc-600',
    cell: (token) => when(token.lastUsedAt, 'never'),
  },
  {
    header: 'State',
    sort: { key: 'state', value: (token) => (token.revokedAt ? 'revoked' : 'active') },
    cell: (token) => (token.revokedAt ? `revoked ${when(token.revokedAt, '')}` : 'active'),
  },
  {
    header: <span className="sr-only">Actions</span>,
    className: 'text-right',
    cell: (token) => !token.revokedAt && <RevokeTokenButton tokenId={token.id} name={token.name} releases={token.releases} />,
  },
];

// The signed-in person's own API tokens: what a trainer's machines use against /api/v1/trainer.
export default async function TokensPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission('api-tokens.own');
  const db = await requestDb();
  // An active token's releases, so that revoking it can offer to withdraw them.
  const tokens: Token[] = await Promise.all(
    (await listOwnApiTokens(db, user)).map(async (token) => {
      const releases = token.revokedAt ? [] : await releasesOfToken(db, token.id);
      return { ...token, releases: releases.length > 0 ? tokenReleasesText(releases) : null };
    }),
  );
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">API tokens</h1>
        <p className="text-sm text-zinc-600">
          Your machines call the trainer API with one of these as a bearer token (<code className="font-mono text-xs">Authorization: Bearer …</code>). Make one
          per machine, so one can be revoked without stopping the others. A token reports groups only for the policies it names; every group records the token
          that sent it, and revoking a token can withdraw what its groups released.
        </p>
      </div>
      <CreateTokenForm nameMax={TOKEN_NAME_MAX} />
      {tokens.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-500">You have no API tokens yet.</p>
      ) : (
        <DataTable
          label="Your API tokens"
          columns={COLUMNS}
          rows={tokens}
          rowKey={(token) => token.id}
          rowProps={() => ({ 'data-testid': 'token-row' })}
          url={{ path: '/tokens', params: await searchParams }}
          defaultSort={{ key: 'created', dir: 'desc' }}
          noun="tokens"
        />
      )}
    </div>
  );
}

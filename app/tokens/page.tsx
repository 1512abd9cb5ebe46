import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { listOwnApiTokens, TOKEN_NAME_MAX } from '@/lib/auth/index.ts';
import { formatTimestamp } from '@/lib/dashboard/index.ts';
import { CreateTokenForm } from './create-token-form.tsx';
import { RevokeTokenButton } from './revoke-token-button.tsx';

export const metadata: Metadata = { title: 'API tokens' };

const when = (date: Date | null, none: string) => (date ? formatTimestamp(date.toISOString()) : none);

// The signed-in person's own API tokens: what a trainer's machines use against /api/v1/trainer.
export default async function TokensPage() {
  const user = await requirePermission('api-tokens.own');
  const tokens = await listOwnApiTokens(await requestDb(), user);
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">API tokens</h1>
        <p className="text-sm text-zinc-600">
          Your machines call the trainer API with one of these as a bearer token (<code className="font-mono text-xs">Authorization: Bearer …</code>). Make one
          per machine, so one can be revoked without stopping the others.
        </p>
      </div>
      <CreateTokenForm nameMax={TOKEN_NAME_MAX} />
      {tokens.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-500">You have no API tokens yet.</p>
      ) : (
        <table aria-label="Your API tokens" className="w-full border-collapse rounded-lg bg-white text-sm">
          <thead>
            <tr className="border-b border-zinc-200 text-left text-xs text-zinc-500">
              <th className="px-3 py-2 font-medium">Name</th>
              <th className="px-3 py-2 font-medium">Created</th>
              <th className="px-3 py-2 font-medium">Last used</th>
              <th className="px-3 py-2 font-medium">State</th>
              <th className="px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} data-testid="token-row" className="border-b border-zinc-100">
                <td className="px-3 py-2 font-medium">{token.name}</td>
                <td className="px-3 py-2 tabular-nums text-zinc-600">{when(token.createdAt, '—')}</td>
                <td className="px-3 py-2 tabular-nums text-zinc-600">{when(token.lastUsedAt, 'never')}</td>
                <td className="px-3 py-2">{token.revokedAt ? `revoked ${when(token.revokedAt, '')}` : 'active'}</td>
                <td className="px-3 py-2 text-right">{!token.revokedAt && <RevokeTokenButton tokenId={token.id} name={token.name} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

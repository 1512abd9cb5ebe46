import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { listOwnApiTokens } from '@/lib/auth/index.ts';
import { homeWork } from '@/lib/dashboard/index.ts';
import { requestDb } from './_server/db.ts';
import { currentUser } from './_server/session.ts';
import { StartReviewLink } from './start-review-link.tsx';

export const metadata: Metadata = { title: 'Home' };

// What Envolve does, then this person's work with counts, by what their role may do. A
// trainer (API only) gets the token how-to: the one page of the dashboard meant for them.
export default async function Home() {
  const user = await currentUser();
  if (!user) redirect('/sign-in?next=%2F');
  const db = await requestDb();
  const work = await homeWork(db, user);
  // The policies this person's active tokens report for: what the `policy` of a report must be.
  const tokens = work.trainerApi ? (await listOwnApiTokens(db, user)).filter((t) => !t.revokedAt) : [];
  const reportPolicy = tokens[0]?.policies[0] ?? 'trainer';
  return (
    <div className="flex max-w-3xl flex-col gap-5">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Hello, {user.name}</h1>
        <p className="text-sm text-zinc-600">
          Envolve evolves terminal-agent RL environments into harder ones, generation by generation, with validators and people checking every step before
          trainers get them.
        </p>
      </div>
      {work.review && (
        <Card title="Review" testId="home-review">
          <p>
            <Count n={work.review.awaiting} one="generation awaits" many="generations await" /> review
            {work.review.next ? '.' : ', none of them waiting for you.'}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            {work.review.next && (
              <StartReviewLink href={`/generations/${work.review.next.generationId}`} label={`${work.review.next.lineageName} G${work.review.next.number}`} />
            )}
            <Link href="/review" className="text-sm text-blue-700 hover:underline">
              Open the queue
            </Link>
            <Link href="/missed-issues" className="text-sm text-blue-700 hover:underline">
              <Count n={work.review.openMissedIssues} one="open missed issue" many="open missed issues" />
            </Link>
          </div>
        </Card>
      )}
      {work.lead && (
        <Card title="Alerts and decisions for leads" testId="home-lead">
          <ul className="flex flex-col gap-1">
            {work.lead.alerts.slice(0, 5).map((alert, i) => (
              <li key={i} className="flex gap-2">
                <span className={alert.severity === 'critical' ? 'text-red-700' : 'text-amber-800'}>{alert.severity}</span>
                <Link href={alert.href as Route} className="text-blue-700 hover:underline">
                  {alert.title}
                </Link>
              </li>
            ))}
          </ul>
          <p className="flex flex-wrap gap-x-4 gap-y-1">
            <Link href="/drift" className="text-blue-700 hover:underline">
              <Count n={work.lead.alerts.length} one="drift alert" many="drift alerts" />
            </Link>
            <Link href="/environments" className="text-blue-700 hover:underline">
              <Count n={work.lead.compromisedVersions} one="version flagged as a reward hack" many="versions flagged as reward hacks" />
            </Link>
            <Link href="/missed-issues" className="text-blue-700 hover:underline">
              <Count n={work.lead.missedIssuesToConvert} one="missed issue to convert or dismiss" many="missed issues to convert or dismiss" />
            </Link>
          </p>
        </Card>
      )}
      {work.labelling && (
        <Card title="Calibration labelling" testId="home-labelling">
          <p>
            <Count n={work.labelling.remaining} one="item is" many="items are" /> left for you to label blind
            {work.labelling.sets.length > 0 ? ` in ${work.labelling.sets.length} ${work.labelling.sets.length === 1 ? 'set' : 'sets'}.` : '.'}
          </p>
          <ul className="flex flex-col gap-1">
            {work.labelling.sets.map((set) => (
              <li key={set.id}>
                <Link href={`/calibration/${set.id}/label` as Route} className="text-blue-700 hover:underline">
                  {set.name}: {set.remaining} left →
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {work.trainerApi && (
        <Card title="Trainer API" testId="home-trainer">
          {user.role === 'trainer' ? (
            <p>
              Your machines fetch environments and report rollout rewards over the API with a bearer token, not through these pages. Make one token per machine
              on{' '}
              <Link href="/tokens" className="text-blue-700 hover:underline">
                your API tokens page
              </Link>
              , then:
            </p>
          ) : (
            <p>
              Trainers fetch environments and report rollout rewards over the API with a bearer token: each makes and revokes their own on their API tokens page
              (or you make one with <code className="font-mono text-xs">npx envolve tokens create --user &lt;email&gt;</code>).{' '}
              <Link href="/tokens" className="text-blue-700 hover:underline">
                Your own tokens
              </Link>{' '}
              work the same way:
            </p>
          )}
          <p data-testid="home-token-policies">
            {tokens.length === 0
              ? 'You have no active token yet. A new one reports for the policy trainer unless you name others.'
              : `Your tokens report for: ${tokens.map((t) => `${t.policies.join(', ')} (${t.name})`).join('; ')}. A group under any other policy is refused (403), and so is one under a policy Envolve runs itself (oracle, nop, simulated, openai, anthropic).`}
          </p>
          <pre className="overflow-x-auto rounded bg-zinc-900 px-3 py-2 font-mono text-xs text-zinc-50" data-testid="home-trainer-request">
            {`TOKEN=…; API=<this server>/api/v1/trainer\ncurl -s -H "Authorization: Bearer $TOKEN" "$API/batch?size=8"\ncurl -s -H "Authorization: Bearer $TOKEN" -o task.tar.gz "$API/environments/<versionId>/task"\nKEY=$(uuidgen)  # one per group; after a lost answer, send the same body with the same KEY\ncurl -s -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' -H "Idempotency-Key: $KEY" \\\n  -d '{"versionId":"…","rewards":[1,0,null,1],"policy":"${reportPolicy}","policyVersion":"step-120"}' "$API/groups"`}
          </pre>
          <p className="text-zinc-600">
            One Idempotency-Key per group: sent again after a lost answer, the same key and body answer the first group (200,{' '}
            <code className="font-mono text-xs">Idempotency-Replayed: true</code>) instead of storing it twice; the same key with another body is 409.{' '}
            <code className="font-mono text-xs">policyVersion</code> is your checkpoint: only the newest one&apos;s groups release generations. The server does
            not require either field, so send both: without <code className="font-mono text-xs">policy</code> a group is reported as{' '}
            <code className="font-mono text-xs">trainer</code> (refused unless your token names it), and without{' '}
            <code className="font-mono text-xs">policyVersion</code> it is filed under the empty version, a checkpoint of its own.{' '}
            <code className="font-mono text-xs">null</code> is a rollout that timed out. Only versions a reviewer approved are served: another answers 409 with
            its state, a held-out version 403, a version flagged as a reward hack 410. The README&apos;s “Trainer API” section has every field.
          </p>
        </Card>
      )}
    </div>
  );
}

function Card({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section aria-label={title} data-testid={testId} className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white p-4 text-sm">
      <h2 className="font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Count({ n, one, many }: { n: number; one: string; many: string }) {
  return (
    <span>
      <span className="font-semibold tabular-nums">{n}</span> {n === 1 ? one : many}
    </span>
  );
}

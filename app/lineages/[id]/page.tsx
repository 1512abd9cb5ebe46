import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache, type ReactNode } from 'react';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { can } from '@/lib/auth/index.ts';
import { getLineageTree, lineageIdSchema, policyViewSchema } from '@/lib/dashboard/index.ts';
import type { LineageTree } from '@/lib/dashboard/index.ts';
import { schedulerConfigFrom } from '@/lib/scheduler/index.ts';
import { LineageStatusBadge } from '../lineage-status-badge.tsx';
import { GateForm } from './gate-form.tsx';
import { PriorsForm } from './priors-form.tsx';
import { RuntimeForm } from './runtime-form.tsx';
import { Releases } from './releases.tsx';
import { SeedFunnel } from './seed-funnel.tsx';
import { LineageTreeView } from './tree-view.tsx';
import { settings } from '@/lib/config/index.ts';
import { GenerationState } from '@/lib/states/index.ts';
import { lineageSeedFunnel } from '@/lib/evolution/index.ts';
import { describeSandboxRuntime } from '@/lib/sandbox/index.ts';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ policy?: string }> };

// cache(): metadata and page share one read per request.
const loadTree = cache(async (rawId: string, rawPolicy: string | undefined) => {
  const user = await requirePermission('dashboard.read');
  const id = lineageIdSchema.safeParse(rawId);
  if (!id.success) notFound();
  const policy = policyViewSchema.safeParse(rawPolicy || undefined);
  const db = await requestDb();
  const config = schedulerConfigFrom(settings().scheduler);
  const tree = await getLineageTree(db, id.data, { config, policy: policy.success ? policy.data : undefined });
  if (!tree) notFound();
  return { tree, mayConfigure: can(user.role, 'lineage.configure'), config };
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  return { title: (await loadTree((await params).id, (await searchParams).policy)).tree.name };
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="font-medium text-zinc-900">{children}</dd>
    </div>
  );
}

// Axes on which the proposer found no edit that raises D: a fixed-axis lineage stops there, a
// mixed one skips the axis until its parent changes.
function ExhaustedAxesNote({ exhausted }: { exhausted: LineageTree['exhaustedAxes'] }) {
  const entries = Object.entries(exhausted);
  if (entries.length === 0) return null;
  return (
    <ul aria-label="Exhausted axes" className="flex flex-col gap-0.5 text-sm text-yellow-900">
      {entries.map(([axis, e]) => (
        <li key={axis}>
          <span className="font-medium">
            {axis} axis exhausted at generation {e!.generation}
          </span>
          <span className="text-zinc-600">: {e!.reason}</span>
        </li>
      ))}
    </ul>
  );
}

export default async function LineagePage({ params, searchParams }: Props) {
  const { tree, mayConfigure, config } = await loadTree((await params).id, (await searchParams).policy);
  const seedFunnel = await lineageSeedFunnel(await requestDb(), tree.id, config);
  const gate = tree.gate;
  const settled = tree.generations.filter((g) => g.versionId !== null).length;
  const failed = tree.generations.filter((g) => g.state === GenerationState.failed).length;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <nav aria-label="Breadcrumb" className="text-xs text-zinc-500">
          <Link href="/lineages" className="hover:text-zinc-800 hover:underline">
            Lineages
          </Link>
          <span aria-hidden> / </span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-lg font-semibold tracking-tight">{tree.name}</h1>
          <LineageStatusBadge status={tree.status} />
        </div>
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <Fact label="Seed">{tree.seed.name}</Fact>
          <Fact label="Generations">
            {settled}
            {failed > 0 && <span className="font-normal text-red-700"> +{failed} failed</span>}
          </Fact>
          <Fact label="Frontier">
            {tree.frontier === null ? '–' : `G${tree.frontier}`}
            {tree.frontierWait && (
              <span className="font-normal text-zinc-600" data-testid="frontier-wait">
                {' '}
                — {tree.frontierWait}
              </span>
            )}
          </Fact>
          <Fact label="Synthesiser">{tree.synthesiser}</Fact>
          <Fact label="Axis · effort">{`${tree.axisPolicy} · ${tree.effort}`}</Fact>
          <Fact label="Approvals required">{tree.approvalsRequired}</Fact>
          <Fact label="Sandbox runtime">
            <span data-testid="sandbox-runtime">{describeSandboxRuntime(tree.sandboxRuntime)}</span>
          </Fact>
          <Fact label="Reference priors">
            <span data-testid="lineage-priors">
              {tree.priors.version} · {tree.priors.description}
            </span>
          </Fact>
          <Fact label="Release gate">
            <span data-testid="release-gate">
              {gate.policy} groups of ≥ {gate.minGroup} rollouts passing ≥ {(gate.releaseRate * 100).toFixed(1)}% · timeouts score {gate.timeoutReward}
            </span>
          </Fact>
          <Fact label="Counts">
            <span data-testid="policy-version">
              {tree.policyVersion === null
                ? `no ${gate.policy} group yet`
                : `only groups of ${gate.policy} checkpoint ${tree.policyVersion || '(no version)'}, its newest checkpoint; older checkpoints' groups release nothing`}
            </span>
          </Fact>
        </dl>
        <ExhaustedAxesNote exhausted={tree.exhaustedAxes} />
        {gate.demoMode && (
          <p role="note" data-testid="demo-mode" className="mt-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {gate.policy === 'simulated' ? (
              <>
                Demo mode: this lineage is released by the <strong>simulated</strong> policy, which no model ran. Generations it released are marked
                &ldquo;simulated — demo mode&rdquo;: simulated figures test the pipeline, not the method. Switch the gating policy to trainer to gate it on the
                groups your trainer reports.
              </>
            ) : (
              <>
                Demo mode: the simulated policy may release this lineage, but its probe policy is now <strong>{gate.policy}</strong>, so only {gate.policy}{' '}
                groups count.
              </>
            )}
          </p>
        )}
      </div>
      <LineageTreeView initial={tree} />
      <Releases tree={tree} />
      {seedFunnel && <SeedFunnel funnel={seedFunnel} />}
      {mayConfigure && <GateForm lineageId={tree.id} gate={gate} policies={tree.policies} />}
      {mayConfigure && <RuntimeForm lineageId={tree.id} current={tree.sandboxRuntime} />}
      {mayConfigure && <PriorsForm lineageId={tree.id} priors={tree.priors} />}
    </div>
  );
}

import Link from 'next/link';
import type { Route } from 'next';
import type { ReactNode } from 'react';
import { formatDuration, formatReward, formatTimestamp, shortHash } from '@/lib/dashboard/browser.ts';
import type { TreeItem } from './tree-graph.ts';
import { attemptTone, generationTone, TONES, type Tone } from './tones.ts';
import type { Difficulty, LineageTree, TreeProbe, TreeVerdict } from '@/lib/dashboard/index.ts';
import { VerdictBadge } from '../../_components/verdict-badge.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_minmax(0,1fr)] gap-2 py-1">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-zinc-900">{children}</dd>
    </div>
  );
}

// A group's pass count with its unit and the checkpoint that made it.
function groupText(probe: TreeProbe): string {
  return `${probe.passes}/${probe.size} rollouts passed${probe.policyVersion ? `, checkpoint ${probe.policyVersion}` : ''}`;
}

function StatePill({ tone, children }: { tone: Tone; children: string }) {
  const style = TONES[tone];
  return (
    <span
      className="rounded-full px-2 py-0.5 text-xs font-medium"
      style={{ background: style.fill, color: style.text, boxShadow: `inset 0 0 0 1px ${style.stroke}` }}
    >
      {children}
    </span>
  );
}

function VersionLink({ id }: { id: string | null }) {
  if (!id) return <span className="text-zinc-400">none</span>;
  return (
    <Link href={`/environments/${id}` as Route} title={id} className="font-mono text-xs text-blue-700 hover:underline">
      {shortHash(id, 16)}
    </Link>
  );
}

function DifficultyRows({ difficulty }: { difficulty: Difficulty | null }) {
  if (!difficulty) return <Row label="Difficulty">—</Row>;
  if ('unknown' in difficulty) {
    return (
      <Row label="Difficulty">
        <span className="font-semibold">{difficulty.label}</span>
        <span className="text-xs text-zinc-500">
          {' '}
          (step{difficulty.undescribedSteps.length === 1 ? '' : 's'} {difficulty.undescribedSteps.join(', ')} not priced)
        </span>
      </Row>
    );
  }
  return (
    <>
      <Row label="Difficulty">
        <span className="font-semibold tabular-nums">{difficulty.total.toFixed(2)}</span>
        <span className="text-xs text-zinc-500"> ({difficulty.model})</span>
      </Row>
      <Row label="L (turns) · novelty · rarity">
        <span className="tabular-nums">
          {difficulty.length} · {difficulty.scenarioNovelty.toFixed(2)} · {difficulty.skillRarity.toFixed(2)}
        </span>
      </Row>
      <Row label="Chain depth">
        <span className="tabular-nums">{difficulty.depth ?? '—'}</span>
      </Row>
    </>
  );
}

function Verdicts({ verdicts }: { verdicts: TreeVerdict[] }) {
  if (verdicts.length === 0) return <span className="text-zinc-400">not validated</span>;
  return (
    <ul className="flex flex-col gap-1">
      {verdicts.map((v) => (
        <li key={v.kind} className="flex items-center justify-between gap-2">
          <span className="text-xs text-zinc-600">{v.kind}</span>
          <span className="flex items-center gap-1.5">
            {v.reward !== null && <span className="text-xs tabular-nums text-zinc-500">reward {formatReward(v.reward)}</span>}
            {v.judged && <span className="text-xs text-zinc-500">{v.judged}</span>}
            <VerdictBadge verdict={v.label} />
          </span>
        </li>
      ))}
    </ul>
  );
}

// The side panel: what a node is, without leaving the tree.
export function NodeDetails({ tree, node, href }: { tree: LineageTree; node: TreeItem; href: string }) {
  const generation = node.generationIndex === null ? undefined : tree.generations[node.generationIndex];
  const attempt = generation && node.attemptIndex !== null ? generation.attempts[node.attemptIndex] : undefined;

  let title: string;
  let body: ReactNode;
  let openLabel: string;
  if (node.run) {
    const states = new Map<string, number>();
    for (const index of node.run.generationIndices) {
      const state = tree.generations[index]?.state;
      if (state) states.set(state, (states.get(state) ?? 0) + 1);
    }
    title = `Generations ${node.run.first}–${node.run.last} (collapsed)`;
    openLabel = `Open generation ${node.run.first}`;
    body = (
      <>
        <Row label="Main line">{`${node.run.count} generations`}</Row>
        <Row label="States">
          <ul className="flex flex-wrap gap-1">
            {[...states].map(([state, count]) => (
              <li key={state}>
                <StatePill tone={generationTone(state)}>{`${count} ${state}`}</StatePill>
              </li>
            ))}
          </ul>
        </Row>
        <Row label="Expand">Click it, or press Enter on it</Row>
      </>
    );
  } else if (!generation) {
    title = `Seed · ${tree.seed.name}`;
    openLabel = 'Open environment';
    body = (
      <>
        <Row label="Version">
          <VersionLink id={tree.seed.versionId} />
        </Row>
        <DifficultyRows difficulty={tree.seed.difficulty} />
        <Row label={`Pass rate (${tree.policy})`}>{tree.seed.probe ? groupText(tree.seed.probe) : 'no group'}</Row>
      </>
    );
  } else if (attempt) {
    title = `G${generation.number} · attempt ${attempt.number}`;
    openLabel = 'Open this attempt';
    body = (
      <>
        <Row label="State">
          <StatePill tone={attemptTone(attempt.state)}>{attempt.state}</StatePill>
        </Row>
        <Row label="Candidate">
          <VersionLink id={attempt.candidateVersionId} />
        </Row>
        <Row label="Duration">
          <span className="tabular-nums">{formatDuration(attempt.durationMs)}</span>
        </Row>
        <Row label="Verdicts">
          <Verdicts verdicts={attempt.verdicts} />
        </Row>
        {attempt.error && (
          <Row label="Error">
            <span className="break-words text-red-800">{attempt.error}</span>
          </Row>
        )}
      </>
    );
  } else {
    title = `Generation ${generation.number}`;
    openLabel = 'Open review page';
    body = (
      <>
        <Row label="State">
          <StatePill tone={generationTone(generation.state)}>{generation.state}</StatePill>
        </Row>
        <Row label="Edit">
          {generation.axis} · {generation.effort}
        </Row>
        <Row label="Version">
          <VersionLink id={generation.versionId} />
        </Row>
        <Row label="Parent">
          <VersionLink id={generation.parentVersionId} />
        </Row>
        <DifficultyRows difficulty={generation.difficulty} />
        <Row label="Verdicts">
          <Verdicts verdicts={generation.verdicts} />
        </Row>
        <Row label={`Pass rate (${tree.policy})`}>{generation.probe ? groupText(generation.probe) : 'no group'}</Row>
        {generation.release && (
          <Row label="Released by">
            <span data-testid="node-released-by">
              {generation.release.policy ?? 'not recorded'}
              {generation.release.simulated && ' (demo mode)'}
              {generation.release.passes !== null &&
                ` · G${generation.number - 1}'s group: ${generation.release.passes}/${generation.release.size} rollouts passed${generation.release.policyVersion ? `, checkpoint ${generation.release.policyVersion}` : ''}`}
            </span>
          </Row>
        )}
        <Row label="Plan rounds">
          <span className="tabular-nums">{generation.planRounds}</span>
        </Row>
        <Row label="Attempts">
          <ul className="flex flex-wrap gap-1">
            {generation.attempts.map((a) => (
              <li key={a.id}>
                <Link href={`/generations/${generation.id}?attempt=${a.number}` as Route} className="hover:underline">
                  <StatePill tone={attemptTone(a.state)}>{`#${a.number} ${a.state}`}</StatePill>
                </Link>
              </li>
            ))}
          </ul>
        </Row>
        <Row label="Updated">
          <time dateTime={generation.updatedAt}>{formatTimestamp(generation.updatedAt)}</time>
        </Row>
        {generation.error && (
          <Row label="Error">
            <span className="break-words text-red-800">{generation.error}</span>
          </Row>
        )}
      </>
    );
  }

  return (
    <aside aria-label="Node details" data-testid="node-details" className="self-start rounded-lg border border-zinc-200 bg-white">
      <h2 className="border-b border-zinc-100 px-4 py-2.5 text-sm font-semibold">{title}</h2>
      <dl className="px-4 py-2 text-sm">{body}</dl>
      <div className="border-t border-zinc-100 px-4 py-2.5">
        <Link href={href as Route} className="text-sm font-medium text-blue-700 hover:underline">
          {openLabel} →
        </Link>
      </div>
    </aside>
  );
}

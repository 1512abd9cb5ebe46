'use client';

// Every turn of a trajectory, navigable by keyboard and searchable. Long trajectories stay
// responsive because outputs arrive as previews (whole ones load on request) and each turn
// is a `content-visibility: auto` block: the browser skips layout and paint of turns off screen.
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { Route } from 'next';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { fetchJson } from '@/app/_components/http.ts';
import { ShortcutHelp, useShortcuts, type Shortcut } from '@/app/_components/shortcuts.tsx';
import { formatDuration } from '@/lib/dashboard/browser.ts';
import type { TurnView, TrajectoryNeighbours } from '@/lib/trajectories/index.ts';
import { findMatches, splitMatches } from '@/lib/trajectories/browser.ts';

type Field = 'message' | 'reasoning' | 'command' | 'output';
const FIELDS: Field[] = ['message', 'reasoning', 'command', 'output'];

function fieldText(turn: TurnView, field: Field, fullOutput: string | undefined): string {
  if (field === 'output') return fullOutput ?? turn.outputPreview ?? '';
  return turn[field] ?? '';
}

// Turns off screen are laid out at an estimated height (content-visibility), so the first
// scroll lands on estimates; as the turns around the target render at their real height, scroll
// again, until the position has held for a few frames (a busy browser lays out over several).
const SETTLED_FRAMES = 3;
const MAX_SETTLE_FRAMES = 40;
function scrollIntoViewSettled(element: Element | null, block: ScrollLogicalPosition): void {
  if (!element) return;
  element.scrollIntoView({ block });
  let frames = 0;
  let held = 0;
  const settle = () => {
    const before = element.getBoundingClientRect().top;
    element.scrollIntoView({ block });
    held = element.getBoundingClientRect().top === before ? held + 1 : 0;
    if (held < SETTLED_FRAMES && ++frames < MAX_SETTLE_FRAMES) requestAnimationFrame(settle);
  };
  requestAnimationFrame(settle);
}

// missedIssueHref: the generation's missed-issue form with this trajectory, when the viewer may file one.
export function TrajectoryViewer({
  trajectoryId,
  turns,
  listSearch,
  missedIssueHref,
}: {
  trajectoryId: string;
  turns: TurnView[];
  listSearch: string;
  missedIssueHref?: string;
}) {
  const router = useRouter();
  const [focused, setFocused] = useState<number | null>(null);
  const [fullOutputs, setFullOutputs] = useState<Record<number, string>>({});
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search);
  const [currentMatch, setCurrentMatch] = useState(0);
  const [visited, setVisited] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const scrollToMatch = useRef(false);

  const neighbours = useQuery({
    queryKey: ['trajectory-neighbours', trajectoryId, listSearch],
    queryFn: () => fetchJson<TrajectoryNeighbours>(`/api/trajectories/${trajectoryId}/neighbours${listSearch}`),
  });

  // Matches in turn order, field order, then position: match n lives in turn matchTurn[n].
  const { perTurnStart, matchTurn } = useMemo(() => {
    const starts: number[] = [];
    const owners: number[] = [];
    turns.forEach((turn, index) => {
      starts.push(owners.length);
      if (!needle) return;
      for (const field of FIELDS) {
        for (let i = findMatches(fieldText(turn, field, fullOutputs[turn.stepId]), needle).length; i > 0; i--) owners.push(index);
      }
    });
    return { perTurnStart: starts, matchTurn: owners };
  }, [turns, needle, fullOutputs]);
  const matchCount = matchTurn.length;

  const focusTurn = useCallback(
    (index: number) => {
      if (turns.length === 0) return;
      const clamped = Math.max(0, Math.min(turns.length - 1, index));
      setFocused(clamped);
      const turn = turns[clamped];
      if (turn) scrollIntoViewSettled(document.getElementById(`turn-${turn.stepId}`), 'nearest');
    },
    [turns],
  );

  const goToMatch = useCallback(
    (index: number) => {
      if (matchCount === 0) return;
      const wrapped = ((index % matchCount) + matchCount) % matchCount;
      setCurrentMatch(wrapped);
      setFocused(matchTurn[wrapped] ?? null);
      scrollToMatch.current = true;
    },
    [matchCount, matchTurn],
  );

  useEffect(() => {
    if (!scrollToMatch.current) return;
    scrollToMatch.current = false;
    scrollIntoViewSettled(document.querySelector(`[data-match="${currentMatch}"]`), 'center');
  }, [currentMatch, focused]);

  const current = focused ?? -1;
  const go = (id: string | null | undefined) => id && router.push(`/trajectories/${id}${listSearch}` as Route);
  const shortcuts: Shortcut[] = [
    { keys: ['j', 'ArrowDown'], label: 'Next turn', run: () => focusTurn(current + 1) },
    { keys: ['k', 'ArrowUp'], label: 'Previous turn', run: () => focusTurn(current <= 0 ? 0 : current - 1) },
    { keys: ['End', 'G'], label: 'Last turn', run: () => focusTurn(turns.length - 1) },
    { keys: ['Home'], label: 'First turn', run: () => focusTurn(0) },
    { keys: ['n'], label: 'Next trajectory in the list', run: () => go(neighbours.data?.nextId) },
    { keys: ['p'], label: 'Previous trajectory in the list', run: () => go(neighbours.data?.previousId) },
    {
      keys: ['/'],
      label: 'Search this trajectory; Enter next match, Shift+Enter previous',
      run: () => {
        searchRef.current?.focus();
        searchRef.current?.select();
      },
    },
  ];
  // Keys pressed before hydration go nowhere: the page says when its shortcuts listen.
  const help = useShortcuts(shortcuts);
  const keysReady = help.ready;

  const loadFull = useCallback(
    async (stepId: number) => {
      const { output } = await fetchJson<{ output: string }>(`/api/trajectories/${trajectoryId}/steps/${stepId}/output`);
      setFullOutputs((all) => ({ ...all, [stepId]: output }));
    },
    [trajectoryId],
  );

  return (
    <section aria-labelledby="turns-heading" data-keys-ready={keysReady ? '' : undefined} className="flex flex-col gap-2">
      <div className="sticky top-0 z-10 flex flex-wrap items-center justify-between gap-3 border-b border-zinc-200 bg-zinc-50/95 py-2 backdrop-blur">
        <h2 id="turns-heading" className="text-sm font-semibold">
          {turns.length} turns
          {focused !== null && (
            <span className="ml-2 font-normal text-zinc-500" data-testid="focused-turn">
              turn {focused + 1} of {turns.length}
            </span>
          )}
        </h2>
        <div className="flex items-center gap-2 text-xs text-zinc-600">
          <label className="flex items-center gap-1">
            <span className="sr-only">Search this trajectory</span>
            <input
              ref={searchRef}
              type="search"
              value={search}
              placeholder="Search turns ( / )"
              onChange={(event) => {
                setSearch(event.target.value);
                setCurrentMatch(0);
                setVisited(false);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  // The first Enter after typing shows the first match; later ones move on.
                  goToMatch(visited ? currentMatch + (event.shiftKey ? -1 : 1) : 0);
                  setVisited(true);
                }
              }}
              className="h-8 w-56 rounded-md border border-zinc-300 bg-white px-2 text-sm"
            />
          </label>
          {needle && (
            <span className="tabular-nums" data-testid="match-count" aria-live="polite">
              {matchCount === 0 ? 'no matches' : `${currentMatch + 1} of ${matchCount}`}
            </span>
          )}
          <span className="hidden sm:inline">
            {neighbours.data?.position ? `#${neighbours.data.position} of ${neighbours.data.total} in list · ` : ''}
            <kbd className="rounded border border-zinc-300 bg-white px-1">?</kbd> keys
          </span>
        </div>
      </div>
      <ol className="flex flex-col gap-2">
        {turns.map((turn, index) => (
          <Turn
            key={turn.stepId}
            turn={turn}
            index={index}
            focused={index === focused}
            needle={needle}
            firstMatch={perTurnStart[index] ?? 0}
            // Only the turn holding the current match re-renders when Enter moves it.
            currentMatch={needle && matchTurn[currentMatch] === index ? currentMatch : -1}
            fullOutput={fullOutputs[turn.stepId]}
            onLoadFull={loadFull}
            onSelect={setFocused}
            missedIssueHref={missedIssueHref}
          />
        ))}
      </ol>
      <ShortcutHelp shortcuts={shortcuts} open={help.helpOpen} onClose={() => help.setHelpOpen(false)} />
    </section>
  );
}

const Turn = memo(function Turn({
  turn,
  index,
  focused,
  needle,
  firstMatch,
  currentMatch,
  fullOutput,
  onLoadFull,
  onSelect,
  missedIssueHref,
}: {
  turn: TurnView;
  index: number;
  focused: boolean;
  needle: string;
  firstMatch: number;
  currentMatch: number;
  fullOutput: string | undefined;
  onLoadFull: (stepId: number) => Promise<void>;
  onSelect: (index: number) => void;
  missedIssueHref: string | undefined;
}) {
  const [loading, setLoading] = useState(false);
  let nextMatch = firstMatch;
  const highlighted = (text: string) =>
    splitMatches(text, needle).map((piece, i) => {
      if (!piece.match) return piece.text;
      const n = nextMatch++;
      return (
        <mark
          key={i}
          data-match={n}
          data-current={n === currentMatch ? '' : undefined}
          className={n === currentMatch ? 'bg-orange-300 text-zinc-900' : 'bg-yellow-200 text-zinc-900'}
        >
          {piece.text}
        </mark>
      );
    });
  const output = fullOutput ?? turn.outputPreview;
  const truncated = fullOutput === undefined && turn.outputPreview !== null && turn.outputPreview.length < turn.outputLength;
  return (
    <li
      id={`turn-${turn.stepId}`}
      data-turn={index + 1}
      data-focused={focused ? '' : undefined}
      onClick={() => onSelect(index)}
      className={`scroll-mt-14 rounded-lg border bg-white [contain-intrinsic-size:auto_180px] [content-visibility:auto] ${focused ? 'border-blue-500 ring-2 ring-blue-500/40' : 'border-zinc-200'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-100 px-3 py-1.5 text-xs text-zinc-500">
        <span className="font-medium text-zinc-700">
          {turn.turn !== null
            ? `Turn ${turn.turn}`
            : turn.source === 'agent'
              ? 'Agent message'
              : `${turn.source[0]?.toUpperCase() ?? ''}${turn.source.slice(1)} message`}{' '}
          <span className="font-normal text-zinc-400">
            · step {turn.stepId} · {turn.source}
          </span>
        </span>
        <span className="flex items-center gap-3 tabular-nums">
          {turn.touchesProtected && <span className="rounded bg-amber-100 px-1.5 text-amber-900">touches /logs or tests</span>}
          {turn.exitCode !== null && <span className={turn.exitCode === 0 ? 'text-emerald-700' : 'text-red-700'}>exit {turn.exitCode}</span>}
          {turn.timedOut && <span className="text-amber-700">timed out</span>}
          {turn.durationMs !== null && <span>{formatDuration(turn.durationMs)}</span>}
          {turn.tokens !== null && <span>{turn.tokens} tokens</span>}
          {missedIssueHref && (
            <a
              href={`${missedIssueHref}&turn=${index + 1}${turn.command ? `&excerpt=${encodeURIComponent(turn.command.slice(0, 500))}` : ''}`}
              onClick={(event) => event.stopPropagation()}
              className="text-blue-700 hover:underline"
              aria-label={`File a missed issue about turn ${index + 1}`}
            >
              File missed issue
            </a>
          )}
        </span>
      </div>
      <div className="flex flex-col gap-2 px-3 py-2 text-sm">
        {turn.message && <p className="whitespace-pre-wrap">{highlighted(turn.message)}</p>}
        {turn.reasoning && (
          <details className="text-xs text-zinc-600" open={Boolean(needle && findMatches(turn.reasoning, needle).length)}>
            <summary className="cursor-pointer select-none">Reasoning</summary>
            <p className="mt-1 whitespace-pre-wrap">{highlighted(turn.reasoning)}</p>
          </details>
        )}
        {turn.command !== null && (
          <pre className="whitespace-pre-wrap break-all rounded bg-zinc-900 px-2 py-1.5 font-mono text-xs text-zinc-100">
            <span className="select-none text-zinc-500">$ </span>
            {highlighted(turn.command)}
          </pre>
        )}
        {output !== null && (
          <div>
            <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 px-2 py-1.5 font-mono text-xs text-zinc-800 ring-1 ring-zinc-200">
              {output === '' ? <span className="text-zinc-400">(no output)</span> : highlighted(output)}
            </pre>
            {truncated && (
              <button
                type="button"
                disabled={loading}
                onClick={async (event) => {
                  event.stopPropagation();
                  setLoading(true);
                  try {
                    await onLoadFull(turn.stepId);
                  } finally {
                    setLoading(false);
                  }
                }}
                className="mt-1 text-xs font-medium text-blue-700 hover:underline disabled:text-zinc-400"
              >
                {loading ? 'Loading…' : `Show full output (${turn.outputLength.toLocaleString('en-US')} characters)`}
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
});

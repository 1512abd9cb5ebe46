'use client';

import { Handle, Position, useStore, type Node, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { memo, type FocusEvent, type MouseEvent } from 'react';
import { shortHash } from '@/lib/dashboard/browser.ts';
import type { LineageTree, TreeAttempt, TreeGeneration } from '@/lib/dashboard/index.ts';
import { attemptTone, generationTone, TONES } from './tones.ts';
import { ATTEMPT_GAP, ATTEMPT_HEIGHT, ATTEMPT_WIDTH, COMPACT_BELOW_ZOOM, NODE_HEIGHT, type CollapsedRun, type GraphNode, type TreeItem } from './tree-graph.ts';
import { AttemptState, GenerationState, stateLabel } from '@/lib/states/index.ts';

/** What the tree view hands every node. */
export interface TreeNodeData extends Record<string, unknown> {
  node: GraphNode;
  tree: LineageTree;
  items: Map<string, TreeItem>;
  hrefs: Map<string, string>;
  focusKey: string;
  onFocusItem: (key: string) => void;
  onHoverItem: (key: string | null) => void;
  onOpen: (event: MouseEvent<Element>, href: string) => void;
  onExpand: (runKey: string) => void;
  register: (key: string, element: HTMLElement | null) => void;
}

export type TreeFlowNode = Node<TreeNodeData, 'lineage'>;

// What a node without a version says instead of its difficulty.
const EMPTY_LABELS: Partial<Record<string, string>> = { [GenerationState.failed]: 'no valid candidate', [GenerationState.exhausted]: 'axis exhausted' };

// What a collapsed run holds besides its main line: the failed siblings folded into it.
export function foldedCount(run: CollapsedRun): number {
  return run.generationIndices.length - run.count;
}

function describe(item: TreeItem, tree: LineageTree): { label: string; tone: keyof typeof TONES; generation?: TreeGeneration; attempt?: TreeAttempt } {
  if (item.run) {
    const newest = tree.generations[item.run.generationIndices.at(-1)!];
    const folded = foldedCount(item.run);
    return {
      tone: newest ? generationTone(newest.state) : 'seed',
      label: `Generations ${item.run.first} to ${item.run.last}, ${item.run.count} collapsed${folded ? ` and ${folded} failed beside them` : ''}: Enter expands`,
    };
  }
  const generation = item.generationIndex === null ? undefined : tree.generations[item.generationIndex];
  if (!generation) {
    const d = tree.seed.difficulty;
    return { tone: 'seed', label: `Seed ${tree.seed.name}${d ? `, difficulty ${'unknown' in d ? d.label : d.total.toFixed(2)}` : ''}` };
  }
  const attempt = item.attemptIndex === null ? undefined : generation.attempts[item.attemptIndex];
  if (attempt) {
    return { tone: attemptTone(attempt.state), generation, attempt, label: `Attempt ${attempt.number} of generation ${generation.number}: ${attempt.state}` };
  }
  const d = generation.difficulty;
  const state = stateLabel(generation.state);
  return {
    tone: generationTone(generation.state),
    generation,
    label: `Generation ${generation.number}, ${state}, ${generation.axis} · ${generation.effort}${d ? `, difficulty ${'unknown' in d ? d.label : `${d.total.toFixed(2)}, L ${d.length} turns${d.depth !== null ? `, chain depth ${d.depth}` : ''}`}` : ''}`,
  };
}

/** The tone a node or attempt is drawn in, for the minimap too. */
export function itemTone(item: TreeItem, tree: LineageTree): keyof typeof TONES {
  return describe(item, tree).tone;
}

// Level of detail: below COMPACT_BELOW_ZOOM a card's lines are too small to read, so it shows its
// number alone, large, in its tone. Every card and attempt stays a link and a keyboard stop.
const compactSelector = (s: ReactFlowState) => s.transform[2] < COMPACT_BELOW_ZOOM;

const FOCUS_RING = 'outline-none focus-visible:ring-[2.5px] focus-visible:ring-blue-600 focus-visible:ring-offset-2';

// One keyboard stop as a real link (click, middle-click, Enter all open it) with a roving tab stop.
function ItemLink({
  item,
  data,
  className,
  style,
  children,
}: {
  item: TreeItem;
  data: TreeNodeData;
  className: string;
  style: React.CSSProperties;
  children: React.ReactNode;
}) {
  const href = data.hrefs.get(item.key) ?? '#';
  const { label } = describe(item, data.tree);
  return (
    <a
      ref={(element) => data.register(item.key, element)}
      href={href}
      role="treeitem"
      aria-level={item.layer + 1}
      aria-label={label}
      tabIndex={item.key === data.focusKey ? 0 : -1}
      data-node-key={item.key}
      data-node-kind={item.kind}
      className={`${className} ${FOCUS_RING}`}
      style={style}
      onClick={(event) => data.onOpen(event, href)}
      onFocus={(event: FocusEvent) => event.currentTarget === event.target && data.onFocusItem(item.key)}
      onPointerEnter={() => data.onHoverItem(item.key)}
      onPointerLeave={() => data.onHoverItem(null)}
    >
      {children}
    </a>
  );
}

// A run of generations drawn as one card: a button that expands it in place, a keyboard stop like
// the others. xyflow passes pointer events through a node that is neither selectable nor
// draggable, so the button takes them back to be clicked.
function RunCard({ node, run, data }: { node: GraphNode; run: CollapsedRun; data: TreeNodeData }) {
  const { tone, label } = describe(node, data.tree);
  const style = TONES[tone];
  const folded = foldedCount(run);
  return (
    <div style={{ width: node.width, height: node.height }} className="relative">
      <Handle type="target" position={Position.Left} isConnectable={false} className="!invisible" style={{ top: NODE_HEIGHT / 2 }} />
      <button
        type="button"
        ref={(element) => data.register(node.key, element)}
        role="treeitem"
        aria-level={node.layer + 1}
        aria-expanded={false}
        aria-label={label}
        tabIndex={node.key === data.focusKey ? 0 : -1}
        data-node-key={node.key}
        data-node-kind="run"
        className={`pointer-events-auto flex w-full cursor-pointer flex-col items-center justify-center rounded-lg border-[1.5px] border-double px-1 leading-tight hover:border-[2.5px] ${FOCUS_RING}`}
        style={{ height: NODE_HEIGHT, background: style.fill, borderColor: style.stroke, color: style.text }}
        onClick={() => data.onExpand(node.key)}
        onFocus={() => data.onFocusItem(node.key)}
        onPointerEnter={() => data.onHoverItem(node.key)}
        onPointerLeave={() => data.onHoverItem(null)}
      >
        <span className="text-[13px] font-semibold whitespace-nowrap">{`G${run.first}–G${run.last}`}</span>
        <span className="text-[11px] whitespace-nowrap">{`${run.count} generations`}</span>
        {folded > 0 && <span className="text-[10.5px] whitespace-nowrap opacity-80">{`+${folded} failed`}</span>}
      </button>
      <Handle type="source" position={Position.Right} isConnectable={false} className="!invisible" style={{ top: NODE_HEIGHT / 2 }} />
    </div>
  );
}

// Every node the tree draws: a collapsed run, or a generation (or the seed).
export const TreeNodeCard = memo(function TreeNodeCard({ data }: NodeProps<TreeFlowNode>) {
  return data.node.run ? <RunCard node={data.node} run={data.node.run} data={data} /> : <GenerationCard data={data} />;
});

// A generation (or the seed) as a card, its attempts that were not kept in a strip below it.
function GenerationCard({ data }: { data: TreeNodeData }) {
  const { node, tree } = data;
  const { tone, generation } = describe(node, tree);
  const style = TONES[tone];
  // A boolean: a node re-renders when the zoom crosses the threshold, not on every zoom step.
  const compact = useStore(compactSelector);
  return (
    <div style={{ width: node.width, height: node.height }} className="relative">
      <Handle type="target" position={Position.Left} isConnectable={false} className="!invisible" style={{ top: NODE_HEIGHT / 2 }} />
      <ItemLink
        item={node}
        data={data}
        className="block cursor-pointer rounded-lg border-[1.5px] px-2.5 py-1.5 transition-[border-width] hover:border-[2.5px]"
        style={{
          height: NODE_HEIGHT,
          background: style.fill,
          borderColor: style.stroke,
          color: style.text,
          borderStyle: generation?.state === GenerationState.failed ? 'dashed' : 'solid',
        }}
      >
        {compact ? (
          <span className="pointer-events-none grid h-full place-items-center text-[28px] font-semibold" data-kind={node.kind} data-compact>
            {generation ? `G${generation.number}` : 'Seed'}
          </span>
        ) : (
          <CardText node={node} tree={tree} generation={generation} />
        )}
      </ItemLink>
      {node.attemptKeys.length > 0 && (
        <div className="mt-2.5 flex flex-wrap" style={{ gap: ATTEMPT_GAP }}>
          {node.attemptKeys.map((key) => {
            const item = data.items.get(key)!;
            const { attempt, tone: attemptToneKey } = describe(item, tree);
            const s = TONES[attemptToneKey];
            return (
              <ItemLink
                key={key}
                item={item}
                data={data}
                className="grid cursor-pointer place-items-center rounded border bg-white font-mono text-[11px] hover:border-2"
                style={{ width: ATTEMPT_WIDTH, height: ATTEMPT_HEIGHT, borderColor: s.stroke, color: s.text, background: compact ? s.stroke : undefined }}
              >
                {compact
                  ? null
                  : `#${attempt?.number ?? ''} ${attempt?.state === AttemptState.error ? '!' : attempt?.state === AttemptState.invalid ? '✗' : ''}`.trim()}
              </ItemLink>
            );
          })}
        </div>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} className="!invisible" style={{ top: NODE_HEIGHT / 2 }} />
    </div>
  );
}

function CardText({ node, tree, generation }: { node: GraphNode; tree: LineageTree; generation?: TreeGeneration }) {
  const difficulty = generation ? generation.difficulty : tree.seed.difficulty;
  const version = generation ? generation.versionId : tree.seed.versionId;
  return (
    <span className="pointer-events-none flex flex-col leading-tight" data-kind={node.kind}>
      <span className="flex items-baseline justify-between gap-2">
        <span className="text-[13px] font-semibold">{generation ? `G${generation.number}` : 'Seed'}</span>
        <span className="truncate text-[11px]">{generation ? stateLabel(generation.state) : tree.seed.name}</span>
      </span>
      <span className="mt-0.5 text-xs tabular-nums">
        {difficulty && 'unknown' in difficulty ? (
          <span className="font-semibold">D {difficulty.label}</span>
        ) : difficulty ? (
          <>
            <span className="font-semibold">D {difficulty.total.toFixed(2)}</span>
            <span className="ml-2 opacity-80">{`L ${difficulty.length}${difficulty.depth !== null ? ` · depth ${difficulty.depth}` : ''}`}</span>
          </>
        ) : (
          <span className="opacity-80">{generation ? (EMPTY_LABELS[generation.state] ?? 'difficulty —') : 'difficulty —'}</span>
        )}
      </span>
      <span className="mt-0.5 font-mono text-[10.5px] opacity-70">{version ? shortHash(version, 16) : `${generation?.attempts.length ?? 0} attempts`}</span>
    </span>
  );
}

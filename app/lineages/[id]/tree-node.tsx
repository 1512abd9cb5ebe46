'use client';

import { memo, type FocusEvent, type MouseEvent } from 'react';
import { shortHash } from '@/lib/dashboard/format.ts';
import type { LaidOutNode } from '@/lib/dashboard/lineages-layout.ts';
import { attemptTone, generationTone, TONES } from '@/lib/dashboard/lineages-tones.ts';
import type { LineageTree, TreeAttempt, TreeGeneration } from '@/lib/dashboard/lineages-types.ts';
import { GenerationState, stateLabel } from '@/lib/evolution/states.ts';

export interface TreeNodeProps {
  node: LaidOutNode;
  tree: LineageTree;
  href: string;
  tabbable: boolean;
  onFocusNode: (key: string) => void;
  onHoverNode: (key: string | null) => void;
  onOpen: (event: MouseEvent<Element>, href: string) => void;
  register: (key: string, element: FocusableNode | null) => void;
}

// React types every <a> as an HTML anchor; inside <svg> it creates an SVG one. Both can take focus.
export type FocusableNode = Element & HTMLOrSVGElement;

// What a node without a version says instead of its difficulty.
const EMPTY_LABELS: Partial<Record<string, string>> = { [GenerationState.failed]: 'no valid candidate', [GenerationState.exhausted]: 'axis exhausted' };

function describe(node: LaidOutNode, tree: LineageTree): { label: string; tone: keyof typeof TONES; generation?: TreeGeneration; attempt?: TreeAttempt } {
  const generation = node.generationIndex === null ? undefined : tree.generations[node.generationIndex];
  if (!generation) {
    const d = tree.seed.difficulty;
    return { tone: 'seed', label: `Seed ${tree.seed.name}${d ? `, difficulty ${d.total.toFixed(2)}` : ''}` };
  }
  const attempt = node.attemptIndex === null ? undefined : generation.attempts[node.attemptIndex];
  if (attempt) {
    return { tone: attemptTone(attempt.state), generation, attempt, label: `Attempt ${attempt.number} of generation ${generation.number}: ${attempt.state}` };
  }
  const d = generation.difficulty;
  const state = stateLabel(generation.state);
  return {
    tone: generationTone(generation.state),
    generation,
    label: `Generation ${generation.number}, ${state}, ${generation.axis} · ${generation.effort}${d ? `, difficulty ${d.total.toFixed(2)}, L ${d.length} turns${d.depth !== null ? `, chain depth ${d.depth}` : ''}` : ''}`,
  };
}

// One node: a real link (click, middle-click, Enter all open it) with a roving tab stop.
export const TreeNode = memo(function TreeNode({ node, tree, href, tabbable, onFocusNode, onHoverNode, onOpen, register }: TreeNodeProps) {
  const { label, tone, generation, attempt } = describe(node, tree);
  const style = TONES[tone];
  const { x, y, width, height } = node;
  return (
    <a
      ref={(element) => register(node.key, element)}
      href={href}
      role="treeitem"
      aria-level={node.layer + 1}
      aria-label={label}
      tabIndex={tabbable ? 0 : -1}
      data-node-key={node.key}
      data-node-kind={node.kind}
      className="group cursor-pointer outline-none"
      onClick={(event) => onOpen(event, href)}
      onFocus={(event: FocusEvent) => event.currentTarget === event.target && onFocusNode(node.key)}
      onPointerEnter={() => onHoverNode(node.key)}
      onPointerLeave={() => onHoverNode(null)}
    >
      <rect
        x={x - 4}
        y={y - 4}
        width={width + 8}
        height={height + 8}
        rx={attempt ? 7 : 11}
        fill="none"
        stroke="#2563eb"
        strokeWidth={2.5}
        className="invisible group-focus-visible:visible"
      />
      <rect
        x={x}
        y={y}
        width={width}
        height={height}
        rx={attempt ? 4 : 8}
        fill={attempt ? '#ffffff' : style.fill}
        stroke={style.stroke}
        strokeWidth={attempt ? 1.25 : 1.5}
        strokeDasharray={generation?.state === GenerationState.failed && !attempt ? '5 3' : undefined}
        className="transition-[stroke-width] group-hover:[stroke-width:2.5]"
      />
      {attempt ? (
        <text x={x + width / 2} y={y + height / 2 + 4} textAnchor="middle" fontSize={11} fill={style.text} className="font-mono">
          {`#${attempt.number} ${attempt.state === 'error' ? '!' : attempt.state === 'invalid' ? '✗' : ''}`.trim()}
        </text>
      ) : (
        <NodeText node={node} tree={tree} generation={generation} color={style.text} />
      )}
    </a>
  );
});

function NodeText({ node, tree, generation, color }: { node: LaidOutNode; tree: LineageTree; generation?: TreeGeneration; color: string }) {
  const { x, y, width } = node;
  const difficulty = generation ? generation.difficulty : tree.seed.difficulty;
  const version = generation ? generation.versionId : tree.seed.versionId;
  return (
    <g fill={color} pointerEvents="none">
      <text x={x + 10} y={y + 19} fontSize={13} fontWeight={600}>
        {generation ? `G${generation.number}` : 'Seed'}
      </text>
      <text x={x + width - 10} y={y + 19} fontSize={11} textAnchor="end">
        {generation ? stateLabel(generation.state) : truncate(tree.seed.name, 18)}
      </text>
      <text x={x + 10} y={y + 37} fontSize={12} className="tabular-nums">
        {difficulty ? (
          <>
            <tspan fontWeight={600}>D {difficulty.total.toFixed(2)}</tspan>
            <tspan dx={8} opacity={0.8}>{`L ${difficulty.length}${difficulty.depth !== null ? ` · depth ${difficulty.depth}` : ''}`}</tspan>
          </>
        ) : (
          <tspan opacity={0.8}>{generation ? (EMPTY_LABELS[generation.state] ?? 'difficulty —') : 'difficulty —'}</tspan>
        )}
      </text>
      <text x={x + 10} y={y + 54} fontSize={10.5} opacity={0.7} className="font-mono">
        {version ? shortHash(version, 16) : `${generation?.attempts.length ?? 0} attempts`}
      </text>
    </g>
  );
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

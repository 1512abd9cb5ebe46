import type { LineageTree } from '@/lib/dashboard/index.ts';
import { SEED_KEY, type TreeItem } from './tree-graph.ts';

// Where a node opens: the generation's review page (at one attempt for an attempt node), or
// the seed's environment page; a collapsed run's first generation.
export function nodeHref(tree: LineageTree, node: TreeItem): string {
  const first = node.run ? tree.generations[node.run.firstIndex] : undefined;
  if (first) return `/generations/${first.id}`;
  if (node.key === SEED_KEY || node.generationIndex === null) return `/environments/${tree.seed.versionId}`;
  const generation = tree.generations[node.generationIndex];
  if (!generation) return `/lineages/${tree.id}`;
  const attempt = node.attemptIndex === null ? undefined : generation.attempts[node.attemptIndex];
  return attempt ? `/generations/${generation.id}?attempt=${attempt.number}` : `/generations/${generation.id}`;
}

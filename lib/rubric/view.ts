// What the synthesisers see of a stored item, and the label that names an item set.
import { createHash } from 'node:crypto';
import type { RubricItem } from '../db/index.ts';
import type { RubricItemView } from '../synth/index.ts';
import { RUBRIC_APPLIES_TO, type RubricAppliesTo } from './types.ts';

function appliesToOf(row: RubricItem): RubricAppliesTo {
  const value = RUBRIC_APPLIES_TO.find((a) => a === row.appliesTo);
  if (!value) throw new Error(`rubric item ${row.key}@${row.version} has an unknown appliesTo "${row.appliesTo}"`);
  return value;
}

export function toItemView(row: RubricItem): RubricItemView {
  return {
    id: row.id,
    key: row.key,
    title: row.title,
    description: row.description,
    question: row.question,
    check: row.check,
    appliesTo: appliesToOf(row),
  };
}

// Recorded with every verdict: the same items at the same versions give the same label,
// whatever their order, so "which rubric judged this" is comparable across runs.
export function rubricVersionLabel(items: ReadonlyArray<Pick<RubricItem, 'key' | 'version'>>): string {
  const lines = items.map((i) => `${i.key}@${i.version}`).sort();
  return `r-${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 10)}`;
}

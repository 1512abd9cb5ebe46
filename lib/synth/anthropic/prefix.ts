// The cached prefix of every request, in the API's caching order:
//   tools (all six, fixed order)                        — tools.ts
//   system[0]: the method prompt       ← cache breakpoint 1 (shared by every role and the prior estimator)
//   system[1]: the rubric catalogue    ← cache breakpoint 2 (changes only when the rubric does)
//   system[2]: the task's files        ← cache breakpoint 3 (the parent for proposer, plan
//              reviewer, modifier and extraction; the candidate for the judges of its items)
// then the per-call user message. A new rubric version re-caches only from the catalogue on;
// calls without a rubric (prior estimates) still hit breakpoint 1; every role working on the
// same parent, and every judge call on the same candidate, reads the files from the cache.
import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { RubricItemView } from '../types.ts';
import { METHOD_PROMPT } from './method-prompt.ts';

const CACHED = { type: 'ephemeral' } as const;

// Sorted by key then id, so the same rubric renders to the same bytes whatever order it came in.
export function sortRubric(rubric: readonly RubricItemView[]): RubricItemView[] {
  return [...rubric].sort((a, b) => (a.key === b.key ? compare(a.id, b.id) : compare(a.key, b.key)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function renderRubricCatalogue(rubric: readonly RubricItemView[]): string {
  if (rubric.length === 0) return '# Rubric catalogue\n(no rubric items)';
  const items = sortRubric(rubric).map((item) => {
    const lines = [`## ${item.key} — ${item.title}`, `id: ${item.id}; applies to: ${item.appliesTo}`, item.description.trim()];
    if (item.question) lines.push(`Question for the judge: ${item.question.trim()}`);
    if (item.check) lines.push(`Executable check (run on the task in a sandbox): ${item.check.trim()}`);
    return lines.join('\n');
  });
  return `# Rubric catalogue (${rubric.length} items)\n\n${items.join('\n\n')}`;
}

export function methodBlock(): TextBlockParam {
  return { type: 'text', text: METHOD_PROMPT, cache_control: CACHED };
}

export function systemPrefix(rubric: readonly RubricItemView[], taskFiles?: string): TextBlockParam[] {
  const blocks: TextBlockParam[] = [methodBlock(), { type: 'text', text: renderRubricCatalogue(rubric), cache_control: CACHED }];
  if (taskFiles !== undefined) blocks.push({ type: 'text', text: `# Task files\n\n${taskFiles}`, cache_control: CACHED });
  return blocks;
}

// "File missed issue" from where the problem is seen: the diff line, the rubric row, the
// trajectory turn. The link carries that context as query parameters (file, line, excerpt,
// rubricItem, trajectory, turn); the form opens with a description that quotes it, and the
// validator most likely to blame chosen. Invalid parameters are dropped one by one.
import { z } from 'zod';
import type { ValidatorKind } from './schema.ts';

const text = (max: number) => z.string().trim().min(1).max(max);

const fields = {
  file: text(1_000),
  line: z.coerce.number().int().min(1),
  excerpt: text(2_000),
  rubricItem: text(200),
  trajectory: text(64),
  turn: z.coerce.number().int().min(1),
};

export type MissedIssuePrefill = { [K in keyof typeof fields]?: z.infer<(typeof fields)[K]> };

export interface MissedIssueDraft {
  title: string;
  description: string;
  validatorKind: ValidatorKind;
}

export function parsePrefill(raw: Record<string, string | string[] | undefined>): MissedIssuePrefill {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(fields)) {
    const value = raw[key];
    const parsed = schema.safeParse(Array.isArray(value) ? value[0] : value);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as MissedIssuePrefill;
}

const quote = (excerpt: string) =>
  excerpt
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');

export function draftFromPrefill(p: MissedIssuePrefill): MissedIssueDraft {
  const where: string[] = [];
  let title = '';
  let validatorKind: ValidatorKind = 'rubric';
  if (p.file) {
    where.push(`In ${p.file}${p.line ? `, line ${p.line}` : ''}:`);
    title = `Problem in ${p.file}${p.line ? `:${p.line}` : ''}`;
  }
  if (p.rubricItem) {
    where.push(`Rubric item ${p.rubricItem} let this through.`);
    title ||= `Rubric item ${p.rubricItem} missed a problem`;
  }
  if (p.rubricItem === 'oracle' || p.rubricItem === 'invalid-test') validatorKind = p.rubricItem;
  if (p.trajectory) {
    where.push(`Trajectory ${p.trajectory}${p.turn ? `, turn ${p.turn}` : ''}:`);
    title ||= `Problem seen in a trajectory${p.turn ? ` at turn ${p.turn}` : ''}`;
  }
  if (p.excerpt) where.push(quote(p.excerpt));
  return { title, description: where.length > 0 ? `${where.join('\n')}\n\n` : '', validatorKind };
}

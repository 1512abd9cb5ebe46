import { z } from 'zod';
import { structuralViolations } from './structure.ts';
import type { Sequence } from './types.ts';
import { InvalidInputError } from '../errors/index.ts';

const stepSchema = z.object({
  id: z.string().min(1),
  scenario: z.string().min(1),
  skill: z.string().min(1),
  dependsOn: z.array(z.string()),
  summary: z.string().optional(),
  origin: z.literal('imported').optional(),
});

const sequenceSchema = z.object({ steps: z.array(stepSchema) });

export class SequenceParseError extends InvalidInputError {
  constructor(readonly problems: string[]) {
    super(`invalid sequence: ${problems.join('; ')}`, { code: 'invalid_sequence', details: { problems } });
  }
}

/**
 * A sequence as stored in EnvironmentVersion.sequence (JSON text) or already decoded. Throws
 * SequenceParseError listing every problem, with the path of each (e.g. "steps[2].skill").
 */
export function parseSequence(json: string | unknown): Sequence {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new SequenceParseError([`not JSON: ${(error as Error).message}`]);
    }
  }
  const parsed = sequenceSchema.safeParse(value);
  if (!parsed.success) {
    throw new SequenceParseError(parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`));
  }
  const structural = structuralViolations(parsed.data);
  if (structural.length > 0) throw new SequenceParseError(structural);
  return parsed.data;
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}

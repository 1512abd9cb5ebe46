// Lineage rows for tests, the e2e render measurement and screenshots, written straight through
// Prisma: no Docker, no synthesiser. Every generation gets `attempts` attempts, all invalid but
// the last, which produced the generation's version; `failedSiblingsAt` adds a failed generation
// with the same number and parent whose attempts were all invalid.
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { seedEnvironment } from './test-fixtures.ts';
import { GenerationState } from '../evolution/states.ts';

export interface LineageFixtureOptions {
  name: string;
  generations: number;
  attempts: number;
  failedSiblingsAt?: number[];
  synthesiser?: string;
  status?: string;
  seedVersionId?: string; // reuse a seed; one is created otherwise
  // The state of generation n (1-based); default: awaiting review.
  stateOf?: (number: number) => string;
}

export interface LineageFixture {
  lineageId: string;
  seedVersionId: string;
  generationIds: string[]; // the settled generation of each number, 1 first
  failedGenerationIds: string[];
}

const RUN_KINDS = ['oracle', 'invalid-test', 'rubric'] as const;

function versionIdFor(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

export async function seedLineage(db: Db, options: LineageFixtureOptions): Promise<LineageFixture> {
  const seedVersionId = options.seedVersionId ?? (await seedEnvironment(db, { name: `${options.name}-seed` }));
  const lineage = await db.lineage.create({
    data: {
      name: options.name,
      seedVersionId,
      axisPolicy: JSON.stringify({ kind: 'round-robin' }),
      effort: 'low',
      synthesiser: options.synthesiser ?? 'procedural',
      seed: 1,
      status: options.status ?? 'idle',
    },
  });
  const axes = ['length', 'scenario', 'skill'];
  const generationIds: string[] = [];
  const failedGenerationIds: string[] = [];
  let parentVersionId = seedVersionId;
  for (let number = 1; number <= options.generations; number += 1) {
    const axis = axes[(number - 1) % axes.length] as string;
    if (options.failedSiblingsAt?.includes(number)) {
      failedGenerationIds.push(await seedGeneration(db, { lineageId: lineage.id, number, axis, parentVersionId, attempts: options.attempts, failed: true }));
    }
    const versionId = versionIdFor(`${lineage.id}/${number}`);
    await db.environmentVersion.create({
      data: {
        id: versionId,
        name: `${options.name}-g${number}`,
        source: 'evolution',
        taskToml: '',
        instruction: '',
        difficultyLength: 2 + number,
        difficultyScenario: 6 + number * 0.5,
        difficultySkill: 7 + number * 0.25,
        difficultyModel: 'ref-test',
      },
    });
    const state = options.stateOf?.(number) ?? GenerationState.awaitingReview;
    generationIds.push(
      await seedGeneration(db, { lineageId: lineage.id, number, axis, parentVersionId, attempts: options.attempts, failed: false, versionId, state }),
    );
    parentVersionId = versionId;
  }
  return { lineageId: lineage.id, seedVersionId, generationIds, failedGenerationIds };
}

async function seedGeneration(
  db: Db,
  input: {
    lineageId: string;
    number: number;
    axis: string;
    parentVersionId: string;
    attempts: number;
    failed: boolean;
    versionId?: string;
    state?: string;
  },
): Promise<string> {
  const generation = await db.generation.create({
    data: {
      lineageId: input.lineageId,
      number: input.number,
      parentVersionId: input.parentVersionId,
      versionId: input.failed ? null : input.versionId,
      axis: input.axis,
      effort: 'low',
      state: input.failed ? GenerationState.failed : (input.state ?? GenerationState.awaitingReview),
      error: input.failed ? 'no valid candidate: the oracle scored 0' : null,
    },
  });
  for (let number = 1; number <= input.attempts; number += 1) {
    const valid = !input.failed && number === input.attempts;
    // An invalid candidate borrows the parent's version: its runs need a stored version, and
    // nothing here reads a candidate's files.
    const candidateVersionId = valid ? (input.versionId as string) : input.parentVersionId;
    const attempt = await db.attempt.create({
      data: {
        generationId: generation.id,
        number,
        state: valid ? 'valid' : number % 2 === 0 ? 'error' : 'invalid',
        error: valid ? null : 'oracle: expected reward 1, got 0',
        candidateVersionId,
        durationMs: 1200 * number,
      },
    });
    await db.validatorRun.createMany({
      data: RUN_KINDS.map((kind) => ({
        versionId: candidateVersionId,
        attemptId: attempt.id,
        kind,
        verdict: valid || kind !== 'oracle' ? 'passed' : 'failed',
        status: 'completed',
        reward: kind === 'rubric' ? null : valid ? (kind === 'oracle' ? 1 : 0) : 0,
        expectedReward: kind === 'oracle' ? 1 : 0,
      })),
    });
  }
  return generation.id;
}

// Two trajectories of one environment version side by side, turn by turn (aligned on the
// ATIF step id), with what differs marked. Whole outputs are compared in SQL, never loaded.
import type { Db } from '../db/index.ts';
import { Prisma } from '../db/index.ts';
import { getTrajectory, type TrajectoryDetail, type TurnView } from './detail.ts';
import { InvalidInputError } from '../errors/index.ts';

export class DifferentVersionsError extends InvalidInputError {
  constructor(a: { id: string; version: string }, b: { id: string; version: string }) {
    super(
      `trajectories ${a.id} and ${b.id} ran on different environment versions (${a.version.slice(0, 12)} and ${b.version.slice(0, 12)}): only trajectories of the same version can be compared`,
    );
  }
}

export interface AlignedTurn {
  stepId: number;
  a: TurnView | null;
  b: TurnView | null;
  commandDiffers: boolean;
  outputDiffers: boolean;
  exitCodeDiffers: boolean;
}

export interface TrajectoryComparison {
  a: TrajectoryDetail;
  b: TrajectoryDetail;
  turns: AlignedTurn[];
  differingTurns: number;
}

/** null when either trajectory does not exist. */
export async function compareTrajectories(db: Db, aId: string, bId: string): Promise<TrajectoryComparison | null> {
  const [a, b] = await Promise.all([getTrajectory(db, aId), getTrajectory(db, bId)]);
  if (!a || !b) return null;
  if (a.version.id !== b.version.id) throw new DifferentVersionsError({ id: a.id, version: a.version.id }, { id: b.id, version: b.version.id });
  const sameOutput = await stepsWithSameOutput(db, aId, bId);
  const byStep = (turns: TurnView[]) => new Map(turns.map((turn) => [turn.stepId, turn]));
  const aSteps = byStep(a.steps);
  const bSteps = byStep(b.steps);
  const stepIds = [...new Set([...aSteps.keys(), ...bSteps.keys()])].sort((x, y) => x - y);
  const turns = stepIds.map((stepId) => {
    const left = aSteps.get(stepId) ?? null;
    const right = bSteps.get(stepId) ?? null;
    const both = left !== null && right !== null;
    return {
      stepId,
      a: left,
      b: right,
      commandDiffers: !both || left.command !== right.command,
      outputDiffers: !both || !sameOutput.has(stepId),
      exitCodeDiffers: !both || left.exitCode !== right.exitCode,
    };
  });
  return { a, b, turns, differingTurns: turns.filter((t) => t.commandDiffers || t.outputDiffers || t.exitCodeDiffers).length };
}

async function stepsWithSameOutput(db: Db, aId: string, bId: string): Promise<Set<number>> {
  const rows = await db.$queryRaw<{ stepId: number | bigint }[]>(Prisma.sql`
    SELECT a."stepId" FROM "TrajectoryStep" a
    JOIN "TrajectoryStep" b ON b."rolloutId" = ${bId} AND b."stepId" = a."stepId"
    WHERE a."rolloutId" = ${aId}
      AND (a."output" = b."output" OR (a."output" IS NULL AND b."output" IS NULL))`);
  return new Set(rows.map((row) => Number(row.stepId)));
}

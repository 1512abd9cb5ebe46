// A lineage as `envolve evolve --json` prints it: per generation the version, its parent, the
// edit, the sequence, the three difficulty components with the chain depth, the verdicts and the
// loop counts; and the axes found exhausted.
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors/index.ts';
import { readStoredDifficulty, type StoredDifficulty } from '../difficulty/index.ts';
import { describeAxisPolicy } from './config.ts';
import { readExhaustedAxes, type ExhaustedAxes } from './exhaustion.ts';
import { settingsOf } from './lineage.ts';
import { lineagePriors } from './lineage-priors.ts';
import { lineageSandboxRuntime } from './lineage-sandbox.ts';
import { resolveBuildMirrors, shownBuildMirrors, type ShownBuildMirrors } from '../sandbox/index.ts';
import type { ResolvedSandboxRuntime } from '../sandbox/index.ts';
import { rubricJudgements, rubricRunLabel } from '../rubric/index.ts';

export interface GenerationReport {
  number: number;
  state: string;
  versionId: string | null;
  parentVersionId: string;
  axis: string;
  effort: string;
  sequence: unknown;
  difficulty: StoredDifficulty | null;
  // shown: what to print; a rubric run's stored verdict is only its gate, so it is shown with what it
  // judged ("partly judged (8 of 19 judged)"), never as a plain "passed" (lib/rubric/judgement.ts).
  verdicts: Record<string, { verdict: string; shown: string; reward: number | null; imageId: string | null; sandboxRuntime: string | null }>;
  planRounds: number;
  attempts: number;
  error: string | null;
}

export interface LineageReport {
  id: string;
  name: string;
  seedVersionId: string;
  axisPolicy: string;
  effort: string;
  synthesiser: string;
  seed: number;
  status: string; // idle | evolving | stalled | exhausted
  sandboxRuntime: ResolvedSandboxRuntime; // what its trials run under (an environment may still require runsc), and why
  buildMirrors: ShownBuildMirrors; // the package mirrors its builds go through, and whose they are
  exhaustedAxes: ExhaustedAxes; // per axis: the generation that found no edit raising D, and why
  priors: { version: string; fitted: boolean; description: string }; // the table its generations' D is measured under
  generations: GenerationReport[];
}

export async function lineageReport(db: Db, lineageId: string): Promise<LineageReport> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) throw new NotFoundError(`lineage ${lineageId} not found`);
  const generations = await db.generation.findMany({
    where: { lineageId },
    orderBy: [{ number: 'asc' }, { createdAt: 'asc' }],
    include: { _count: { select: { planRounds: true, attempts: true } } },
  });
  const versionIds = generations.flatMap((g) => (g.versionId ? [g.versionId] : []));
  const versions = new Map((await db.environmentVersion.findMany({ where: { id: { in: versionIds } } })).map((v) => [v.id, v]));
  const runs = await db.validatorRun.findMany({
    where: { versionId: { in: versionIds }, attemptId: { not: null } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, versionId: true, kind: true, verdict: true, reward: true, imageId: true, sandboxRuntime: true },
  });
  const judgements = await rubricJudgements(
    db,
    runs.filter((r) => r.kind === 'rubric').map((r) => r.id),
  );
  const shown = (run: (typeof runs)[number]) => {
    const j = judgements.get(run.id);
    return j ? `${rubricRunLabel(run.verdict, j)} (${j.judged} of ${j.total} judged)` : run.verdict;
  };
  const settings = settingsOf(lineage);
  const { version, fitted, description } = await lineagePriors(db, lineage);
  return {
    id: lineage.id,
    name: lineage.name,
    seedVersionId: lineage.seedVersionId,
    axisPolicy: describeAxisPolicy(settings.axisPolicy),
    effort: lineage.effort,
    synthesiser: lineage.synthesiser,
    seed: lineage.seed,
    status: lineage.status,
    sandboxRuntime: lineageSandboxRuntime(settings),
    buildMirrors: shownBuildMirrors(resolveBuildMirrors(settings.buildMirrors)),
    exhaustedAxes: readExhaustedAxes(lineage),
    priors: { version, fitted, description },
    generations: generations.map((g) => {
      const version = g.versionId ? versions.get(g.versionId) : undefined;
      const verdicts: GenerationReport['verdicts'] = {};
      for (const run of runs.filter((r) => r.versionId === g.versionId)) {
        verdicts[run.kind] = { verdict: run.verdict, shown: shown(run), reward: run.reward, imageId: run.imageId, sandboxRuntime: run.sandboxRuntime };
      }
      return {
        number: g.number,
        state: g.state,
        versionId: g.versionId,
        parentVersionId: g.parentVersionId,
        axis: g.axis,
        effort: g.effort,
        sequence: version ? ((JSON.parse(version.metadata) as { sequence?: unknown }).sequence ?? null) : null,
        difficulty: version ? readStoredDifficulty(version) : null,
        verdicts,
        planRounds: g._count.planRounds,
        attempts: g._count.attempts,
        error: g.error,
      };
    }),
  };
}

// Creating and listing calibration sets. A set is a frozen sample of trajectories (stratified by
// the verifier's verdict, or plain random) with the verdict each was drawn under, the scope's
// stratum sizes at that moment, the annotators, and the verifier it measures.
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { AuditActor } from '../audit/index.ts';
import { recordAudit } from '../audit/index.ts';
import { can } from '../auth/index.ts';
import type { Db } from '../db/index.ts';
import { CalibrationInputError, CalibrationNotFoundError } from './errors.ts';
import { scopeCandidates, scopeSchema, scopeVersionIds, type CalibrationScope } from './scope.ts';
import type { SamplingDesign } from './metrics-population.ts';
import { randomSample, stratifiedSample, stratumPopulation, stratumSizes } from './sample.ts';
import { verifierVersionOf } from './verifier-version.ts';

export const DEFAULT_SET_SIZE = 50;
export const DEFAULT_PASS_SHARE = 0.5;

export const newSetSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  scope: scopeSchema,
  size: z.number().int().min(1).max(10_000).default(DEFAULT_SET_SIZE),
  passShare: z.number().min(0).max(1).default(DEFAULT_PASS_SHARE),
  design: z.enum(['stratified', 'random']).default('stratified'),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  annotatorEmails: z.array(z.string().trim().toLowerCase().email()).min(1, 'name at least one annotator'),
  overlap: z.number().int().min(1).optional(),
});

export type NewSetInput = z.input<typeof newSetSchema>;

// Labelling until every item has its labels, then adjudicating until a lead settled every
// disagreement, then complete; consensus.ts's refreshSetState is the one writer.
export const SetState = { labelling: 'labelling', adjudicating: 'adjudicating', complete: 'complete' } as const;
export type SetState = (typeof SetState)[keyof typeof SetState];
export const SET_STATES = [SetState.labelling, SetState.adjudicating, SetState.complete] as const;

export interface SetSummary {
  id: string;
  name: string;
  scope: CalibrationScope;
  size: number;
  passShare: number;
  design: SamplingDesign;
  strata: { pass: number; fail: number }; // items drawn from each verifier verdict
  population: { pass: number; fail: number } | null; // the scope's verifier passes and fails when drawn
  seed: number;
  overlap: number;
  annotators: { id: string; email: string; name: string }[];
  verifierVersion: string;
  state: SetState;
  createdAt: Date;
  labels: number; // labels given so far, over items × overlap needed
  labelsNeeded: number;
}

export async function createCalibrationSet(db: Db, actor: AuditActor, input: NewSetInput): Promise<SetSummary> {
  const parsed = newSetSchema.safeParse(input);
  if (!parsed.success) throw new CalibrationInputError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  const { scope, size, passShare, design } = parsed.data;
  const emails = [...new Set(parsed.data.annotatorEmails)];
  const users = await db.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true, role: true } });
  const unknown = emails.filter((e) => !users.some((u) => u.email === e));
  if (unknown.length > 0) throw new CalibrationInputError(`no account has the email ${unknown.join(', ')}`);
  const cannot = users.filter((u) => !can(u.role, 'calibration.label'));
  if (cannot.length > 0) {
    throw new CalibrationInputError(`${cannot.map((u) => `${u.email} (${u.role})`).join(', ')} may not label: annotators must be annotators, leads or admins`);
  }
  const annotatorIds = emails.map((e) => users.find((u) => u.email === e)!.id);
  const overlap = parsed.data.overlap ?? Math.min(2, annotatorIds.length);
  if (overlap > annotatorIds.length) {
    throw new CalibrationInputError(`overlap ${overlap} needs at least ${overlap} annotators, the set has ${annotatorIds.length}`);
  }
  const seed = parsed.data.seed ?? randomInt(0, 2 ** 31 - 1);

  const versionIds = await scopeVersionIds(db, scope);
  if (versionIds.length === 0) throw new CalibrationInputError('the scope holds no environment versions');
  const candidates = await scopeCandidates(db, versionIds);
  const population = stratumPopulation(candidates);
  const sampled = design === 'random' ? randomSample(candidates, { size, seed }) : stratifiedSample(candidates, { size, passShare, seed });
  const rollouts = await db.rollout.findMany({
    where: { id: { in: sampled.map((s) => s.rolloutId) } },
    select: { id: true, reward: true, versionId: true },
  });
  const byId = new Map(rollouts.map((r) => [r.id, r]));
  const verifierVersion = await verifierVersionOf(db, [...new Set(rollouts.map((r) => r.versionId))]);

  const set = await db.$transaction(async (tx) => {
    const created = await tx.calibrationSet.create({
      data: {
        name: parsed.data.name ?? `Calibration ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
        createdById: actor.id ?? actor.email,
        scope: JSON.stringify(scope),
        size,
        passShare,
        design,
        populationPass: population.pass,
        populationFail: population.fail,
        seed,
        overlap,
        annotatorIds: JSON.stringify(annotatorIds),
        verifierVersion,
        items: {
          create: sampled.map((s) => ({
            position: s.position,
            rolloutId: s.rolloutId,
            stratum: s.passed ? 'pass' : 'fail',
            verifierPassed: s.passed,
            verifierReward: byId.get(s.rolloutId)?.reward ?? null,
          })),
        },
      },
    });
    await recordAudit(tx, {
      actor,
      action: 'calibration.create',
      subjectType: 'calibration-set',
      subjectId: created.id,
      after: { scope, size, design, passShare, population, seed, overlap, annotators: emails, verifierVersion },
    });
    return created;
  });
  return getSetSummary(db, set.id);
}

type SetRow = Awaited<ReturnType<typeof loadSetRows>>[number];

async function loadSetRows(db: Db, where: { id?: string } = {}) {
  return db.calibrationSet.findMany({
    where,
    orderBy: { createdAt: 'desc' },
    select: {
      id: true,
      name: true,
      scope: true,
      size: true,
      passShare: true,
      design: true,
      populationPass: true,
      populationFail: true,
      seed: true,
      overlap: true,
      annotatorIds: true,
      verifierVersion: true,
      state: true,
      createdAt: true,
      _count: { select: { items: true } },
      items: { select: { verifierPassed: true, _count: { select: { labels: true } } } },
    },
  });
}

async function toSummaries(db: Db, rows: SetRow[]): Promise<SetSummary[]> {
  const ids = [...new Set(rows.flatMap((r) => annotatorIdsOf(r.annotatorIds)))];
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true, name: true } });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    scope: scopeSchema.parse(JSON.parse(r.scope)),
    size: r._count.items,
    passShare: r.passShare,
    design: r.design as SamplingDesign,
    strata: drawnStrata(r),
    population: r.populationPass !== null && r.populationFail !== null ? { pass: r.populationPass, fail: r.populationFail } : null,
    seed: r.seed,
    overlap: r.overlap,
    annotators: annotatorIdsOf(r.annotatorIds).map((id) => users.find((u) => u.id === id) ?? { id, email: id, name: id }),
    verifierVersion: r.verifierVersion,
    state: r.state as SetState,
    createdAt: r.createdAt,
    // An item counts at most `overlap` labels towards progress.
    labels: r.items.reduce((n, i) => n + Math.min(i._count.labels, r.overlap), 0),
    labelsNeeded: r._count.items * r.overlap,
  }));
}

// A stratified set drew its planned split; a random one drew whatever the scope gave it.
function drawnStrata(r: SetRow): { pass: number; fail: number } {
  if (r.design !== 'random') return stratumSizes({ size: r.size, passShare: r.passShare });
  const pass = r.items.filter((i) => i.verifierPassed).length;
  return { pass, fail: r.items.length - pass };
}

export function annotatorIdsOf(json: string): string[] {
  return z.array(z.string()).parse(JSON.parse(json));
}

export async function listCalibrationSets(db: Db): Promise<SetSummary[]> {
  return toSummaries(db, await loadSetRows(db));
}

export async function getSetSummary(db: Db, setId: string): Promise<SetSummary> {
  const [summary] = await toSummaries(db, await loadSetRows(db, { id: setId }));
  if (!summary) throw new CalibrationNotFoundError(`no calibration set has the id ${setId}`);
  return summary;
}

/**
 * What an annotator may know about the sets they are on: name, size, their own progress.
 * Nothing about strata or the verifier — even the pass share is a prior on the answer.
 */
export interface AnnotatorSetSummary {
  id: string;
  name: string;
  items: number;
  myLabels: number;
  state: SetState;
}

export async function listSetsForAnnotator(db: Db, annotatorId: string): Promise<AnnotatorSetSummary[]> {
  const sets = await db.calibrationSet.findMany({
    orderBy: { createdAt: 'desc' },
    select: { id: true, name: true, state: true, annotatorIds: true, _count: { select: { items: true } } },
  });
  const mine = sets.filter((s) => annotatorIdsOf(s.annotatorIds).includes(annotatorId));
  const perSet = await Promise.all(mine.map((s) => db.calibrationLabel.count({ where: { annotatorId, item: { setId: s.id } } })));
  return mine.map((s, i) => ({ id: s.id, name: s.name, items: s._count.items, myLabels: perSet[i]!, state: s.state as SetState }));
}

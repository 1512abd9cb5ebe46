// Evolution starts from a seed the funnel keeps (lib/gate/seed-funnel-gate.ts), under the policy
// that gates the lineage. A seed it has not kept — not kept, still waiting for a group, or a policy
// that cannot decide — evolves only under an override recorded on the lineage: who, when, why, and
// the verdict overridden, with an audit entry. A lineage that already has generations was admitted
// when its first one was made: from then on the trainer is served its frontier, not its seed, so a
// later checkpoint's verdict on the seed would be missing or stale, not a reason to stop.
import { z } from 'zod';
import { recordAudit, type AuditActor } from '../audit/index.ts';
import type { Db, Lineage } from '../db/index.ts';
import { seedFunnelVerdict, lineageGate } from '../gate/index.ts';
import type { SeedFunnelVerdict } from '../gate/index.ts';
import type { SchedulerConfig } from '../config/index.ts';
import { NotFoundError, RefusedError } from '../errors/index.ts';

export const SEED_FUNNEL_OVERRIDE_ACTION = 'lineage.seed-funnel-override';
export const SEED_NOT_KEPT = 'seed_not_kept';

export interface SeedFunnelOverride {
  by: string; // the actor's email (cli:<user> at the command line)
  at: string; // ISO time
  reason: string;
  demoMode: boolean; // recorded by `envolve setup` for the demo lineage
  verdict: SeedFunnelVerdict; // the funnel's verdict when it was overridden
}

const storedOverride = z.object({
  by: z.string(),
  at: z.string(),
  reason: z.string(),
  demoMode: z.boolean().default(false),
  verdict: z.custom<SeedFunnelVerdict>((v) => typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string'),
});

export function seedFunnelOverrideOf(lineage: Pick<Lineage, 'seedFunnelOverride'>): SeedFunnelOverride | null {
  return lineage.seedFunnelOverride === null ? null : storedOverride.parse(JSON.parse(lineage.seedFunnelOverride));
}

/** Evolution refused: the funnel has not kept the seed and no override is recorded. */
export class SeedNotKeptError extends RefusedError {
  readonly verdict: SeedFunnelVerdict;

  constructor(verdict: SeedFunnelVerdict) {
    super(`${verdict.message}; nothing was evolved. To evolve it anyway, record an override with a reason: envolve evolve … --force --reason "<why>"`, {
      code: SEED_NOT_KEPT,
      details: { verdict },
    });
    this.verdict = verdict;
  }
}

export interface SeedFunnelSubject {
  seedVersionId: string;
  policy: string; // the policy gating the lineage (or the one a new lineage would be gated by)
  lineage: Pick<Lineage, 'id' | 'seedFunnelOverride'> | null; // null: not created yet
}

/** Why evolving the subject is refused, or null when the funnel keeps its seed, an override is recorded, or it has generations. */
export async function seedFunnelRefusal(db: Db, subject: SeedFunnelSubject): Promise<SeedNotKeptError | null> {
  const { lineage } = subject;
  if (lineage?.seedFunnelOverride) return null;
  if (lineage && (await db.generation.count({ where: { lineageId: lineage.id } })) > 0) return null;
  const verdict = await seedFunnelVerdict(db, subject.seedVersionId, subject.policy);
  return verdict.kind === 'kept' ? null : new SeedNotKeptError(verdict);
}

/** The refusal of evolving an existing lineage under its own gate. */
export async function lineageSeedFunnelRefusal(db: Db, lineageId: string, config: SchedulerConfig): Promise<SeedNotKeptError | null> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) throw new NotFoundError(`lineage ${lineageId} not found`);
  return seedFunnelRefusal(db, { seedVersionId: lineage.seedVersionId, policy: lineageGate(lineage, config).policy, lineage });
}

export interface OverrideInput {
  reason: string;
  verdict: SeedFunnelVerdict;
  demoMode?: boolean;
}

/** Records on the lineage that it evolves although the funnel did not keep its seed; audited. */
export async function recordSeedFunnelOverride(db: Db, actor: AuditActor, lineageId: string, input: OverrideInput): Promise<Lineage> {
  const reason = input.reason.trim();
  if (!reason) throw new RefusedError('overriding the seed funnel needs a reason', { code: 'reason_required' });
  const override: SeedFunnelOverride = { by: actor.email, at: new Date().toISOString(), reason, demoMode: input.demoMode ?? false, verdict: input.verdict };
  return db.$transaction(async (tx) => {
    const before = await tx.lineage.findUnique({ where: { id: lineageId } });
    if (!before) throw new NotFoundError(`lineage ${lineageId} not found`);
    const row = await tx.lineage.update({ where: { id: lineageId }, data: { seedFunnelOverride: JSON.stringify(override) } });
    await recordAudit(tx, {
      actor,
      action: SEED_FUNNEL_OVERRIDE_ACTION,
      subjectType: 'lineage',
      subjectId: lineageId,
      before: { seedFunnelOverride: seedFunnelOverrideOf(before) },
      after: { seedFunnelOverride: override },
    });
    return row;
  });
}

export interface LineageSeedFunnel {
  verdict: SeedFunnelVerdict; // the funnel's verdict on the seed now, under the lineage's gate
  override: SeedFunnelOverride | null;
  evolved: boolean; // the lineage has generations: it was admitted when its first one was made
}

/** What the lineage page shows of the funnel: its verdict on the seed now, and any override. */
export async function lineageSeedFunnel(db: Db, lineageId: string, config: SchedulerConfig): Promise<LineageSeedFunnel | null> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) return null;
  const [verdict, generations] = await Promise.all([
    seedFunnelVerdict(db, lineage.seedVersionId, lineageGate(lineage, config).policy),
    db.generation.count({ where: { lineageId } }),
  ]);
  return { verdict, override: seedFunnelOverrideOf(lineage), evolved: generations > 0 };
}

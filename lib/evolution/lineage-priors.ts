// Which reference priors a lineage measures D under: the shipped table, or a version
// fitted with `envolve priors fit` from the lab's own corpus. Chosen when the lineage is made
// (`envolve evolve --priors`) or changed later by a lead (the lineage page, the API, `envolve
// lineage priors`), audited. The monotone gate and every generation's stored D use it; a fitted
// version that is not stored is refused, never replaced by the shipped table.
import { z } from 'zod';
import { recordAudit, type AuditActor } from '../audit/index.ts';
import type { Db, Lineage } from '../db/index.ts';
import { priorsChoices, priorsTable, REFERENCE_TABLE, type PriorsChoice } from '../difficulty/index.ts';
import { InvalidInputError, NotFoundError } from '../errors/index.ts';

// The word for the shipped table, beside its version.
export const SHIPPED_PRIORS = 'reference';

export const lineagePriorsPatchSchema = z.object({ priors: z.string().trim().min(1).max(200) }).strict();
export type LineagePriorsPatch = z.infer<typeof lineagePriorsPatchSchema>;

export interface LineagePriors {
  version: string; // the table's version (the shipped one's when the lineage names none)
  fitted: boolean;
  description: string;
  choices: PriorsChoice[]; // what a lead may switch to
}

/**
 * The stored form of a choice: null for the shipped table ("reference" or its version), the
 * fitted version otherwise, once it is known to be stored.
 */
export async function priorsVersionOf(db: Db, choice: string): Promise<string | null> {
  if (choice === SHIPPED_PRIORS || choice === REFERENCE_TABLE.version) return null;
  if (!choice.startsWith('fit-')) {
    throw new InvalidInputError(`priors must be "${SHIPPED_PRIORS}" (${REFERENCE_TABLE.version}) or a fitted version fit-…, not "${choice}"`);
  }
  await priorsTable(db, choice);
  return choice;
}

export async function lineagePriors(db: Db, lineage: Pick<Lineage, 'priorsVersion'>): Promise<LineagePriors> {
  const choices = await priorsChoices(db);
  const version = lineage.priorsVersion ?? REFERENCE_TABLE.version;
  const chosen = choices.find((c) => c.version === version);
  return {
    version,
    fitted: lineage.priorsVersion !== null,
    description: chosen?.description ?? 'not stored: D cannot be measured until it is fitted again or another table is chosen',
    choices,
  };
}

/** Sets the table the lineage's later generations are measured under; audited. */
export async function setLineagePriors(db: Db, actor: AuditActor, lineageId: string, patch: LineagePriorsPatch): Promise<Lineage> {
  const { priors } = lineagePriorsPatchSchema.parse(patch);
  const priorsVersion = await priorsVersionOf(db, priors);
  return db.$transaction(async (tx) => {
    const before = await tx.lineage.findUnique({ where: { id: lineageId } });
    if (!before) throw new NotFoundError(`lineage ${lineageId} not found`);
    const row = await tx.lineage.update({ where: { id: lineageId }, data: { priorsVersion } });
    await recordAudit(tx, {
      actor,
      action: 'lineage.priors',
      subjectType: 'lineage',
      subjectId: lineageId,
      before: { priors: before.priorsVersion ?? REFERENCE_TABLE.version },
      after: { priors: priorsVersion ?? REFERENCE_TABLE.version },
    });
    return row;
  });
}

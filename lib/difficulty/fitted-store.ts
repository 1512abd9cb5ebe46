// Fitted reference versions in the database (ReferencePriors): the table as JSON, with its provenance.
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors/index.ts';
import type { FitProvenance, FittedPriors } from './fit.ts';
import { REFERENCE_TABLE, type ReferenceTable } from './reference-priors.ts';

interface StoredTable {
  scenarioEpsilon: number;
  skillEpsilon: number;
  scenarios: [string, number][];
  skillsGiven: [string, [string, number][]][];
  skillMarginal: [string, number][];
  turns: [string, number][];
  scenarioTurns: [string, number][];
  pairTurns: [string, number][];
  unknownSkillTurns: number;
  provenance?: string;
}

function serialise(table: ReferenceTable): StoredTable {
  return {
    scenarioEpsilon: table.scenarioEpsilon,
    skillEpsilon: table.skillEpsilon,
    scenarios: [...table.scenarios],
    skillsGiven: [...table.skillsGiven].map(([σ, m]) => [σ, [...m]]),
    skillMarginal: [...table.skillMarginal],
    turns: [...table.turns],
    scenarioTurns: [...table.scenarioTurns],
    pairTurns: [...table.pairTurns],
    unknownSkillTurns: table.unknownSkillTurns,
    ...(table.provenance ? { provenance: table.provenance } : {}),
  };
}

function deserialise(version: string, stored: StoredTable): ReferenceTable {
  return {
    version,
    scenarioEpsilon: stored.scenarioEpsilon,
    skillEpsilon: stored.skillEpsilon,
    scenarios: new Map(stored.scenarios),
    skillsGiven: new Map(stored.skillsGiven.map(([σ, m]) => [σ, new Map(m)])),
    skillMarginal: new Map(stored.skillMarginal),
    turns: new Map(stored.turns),
    scenarioTurns: new Map(stored.scenarioTurns),
    pairTurns: new Map(stored.pairTurns),
    unknownSkillTurns: stored.unknownSkillTurns,
    ...(stored.provenance ? { provenance: stored.provenance } : {}),
  };
}

/** Stores a fitted version; a version already stored (same corpus, same options) is left as it was. */
export async function storeFittedPriors(db: Db, fitted: FittedPriors): Promise<{ created: boolean }> {
  const existing = await db.referencePriors.findUnique({ where: { version: fitted.table.version }, select: { version: true } });
  if (existing) return { created: false };
  await db.referencePriors.create({
    data: { version: fitted.table.version, table: JSON.stringify(serialise(fitted.table)), provenance: JSON.stringify(fitted.provenance) },
  });
  return { created: true };
}

export async function loadFittedPriors(db: Db, version: string): Promise<(FittedPriors & { createdAt: Date }) | null> {
  const row = await db.referencePriors.findUnique({ where: { version } });
  if (!row) return null;
  return {
    table: deserialise(row.version, JSON.parse(row.table) as StoredTable),
    provenance: JSON.parse(row.provenance) as FitProvenance,
    createdAt: row.createdAt,
  };
}

export async function listFittedPriors(db: Db): Promise<Array<{ version: string; createdAt: Date; provenance: FitProvenance }>> {
  const rows = await db.referencePriors.findMany({ orderBy: { createdAt: 'desc' }, select: { version: true, createdAt: true, provenance: true } });
  return rows.map((r) => ({ version: r.version, createdAt: r.createdAt, provenance: JSON.parse(r.provenance) as FitProvenance }));
}

/**
 * The table a lineage measures D under: its fitted version, or the shipped reference when it names
 * none (null) or names the shipped one. A fitted version that is not stored is an error, never a
 * silent fall back to the reference: D would be measured under a table nobody chose.
 */
export async function priorsTable(db: Db, version: string | null): Promise<ReferenceTable> {
  if (version === null || version === REFERENCE_TABLE.version) return REFERENCE_TABLE;
  const fitted = await loadFittedPriors(db, version);
  if (!fitted) throw new NotFoundError(`reference priors ${version} are not stored: fit them with \`envolve priors fit\` or choose another table`);
  return fitted.table;
}

export interface PriorsChoice {
  version: string;
  description: string; // what it is: the shipped table, or what a fitted one was fitted from
}

/** The tables a lineage may measure D under: the shipped reference first, then every fitted version, newest first. */
export async function priorsChoices(db: Db): Promise<PriorsChoice[]> {
  const fitted = await listFittedPriors(db);
  return [
    { version: REFERENCE_TABLE.version, description: 'the shipped reference table' },
    ...fitted.map((f) => ({
      version: f.version,
      description: `fitted ${f.createdAt.toISOString().slice(0, 10)} from ${f.provenance.counts.environments} environments (${f.provenance.counts.steps} steps) over ${f.provenance.base}`,
    })),
  ];
}

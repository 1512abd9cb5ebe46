// Fitted reference versions in the database (ReferencePriors): the table as JSON, with its provenance.
import type { Db } from '../db/index.ts';
import type { FitProvenance, FittedPriors } from './fit.ts';
import type { ReferenceTable } from './reference-priors.ts';

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

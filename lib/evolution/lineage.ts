// Lineages: a seed environment and the settings it evolves under.
import type { Db } from '../db/client.ts';
import type { Lineage } from '../db/generated/client.ts';
import { getVersion } from '../env/store.ts';
import type { BaseImageMapping } from '../sandbox/base-image-map.ts';
import { describeAxisPolicy, lineageSettingsSchema, type LineageSettings, type LineageSettingsInput } from './config.ts';

export interface LoadedLineage {
  row: Lineage;
  settings: LineageSettings;
}

export function settingsOf(row: Lineage): LineageSettings {
  return lineageSettingsSchema.parse({
    axisPolicy: JSON.parse(row.axisPolicy),
    effort: row.effort,
    synthesiser: row.synthesiser,
    seed: row.seed,
    loops: JSON.parse(row.config).loops,
    baseImages: JSON.parse(row.config).baseImages,
  });
}

export async function loadLineage(db: Db, lineageId: string): Promise<LoadedLineage> {
  const row = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!row) throw new Error(`lineage ${lineageId} not found`);
  return { row, settings: settingsOf(row) };
}

// `envolve evolve` continues the lineage of the same seed and settings, or starts one.
export async function findOrCreateLineage(db: Db, seedVersionId: string, input: LineageSettingsInput): Promise<LoadedLineage> {
  const settings = lineageSettingsSchema.parse(input);
  const seed = await getVersion(db, seedVersionId);
  if (!seed) throw new Error(`environment version ${seedVersionId} not found`);
  const axisPolicy = JSON.stringify(settings.axisPolicy);
  const existing = await db.lineage.findFirst({
    where: { seedVersionId, axisPolicy, effort: settings.effort, synthesiser: settings.synthesiser, seed: settings.seed },
    orderBy: { createdAt: 'asc' },
  });
  if (existing) {
    if (!input.baseImages) return { row: existing, settings: settingsOf(existing) };
    return setLineageBaseImages(db, existing, settings.baseImages);
  }
  const row = await db.lineage.create({
    data: {
      name: `${seed.name} · ${describeAxisPolicy(settings.axisPolicy)} · ${settings.effort}`,
      seedVersionId,
      axisPolicy,
      effort: settings.effort,
      synthesiser: settings.synthesiser,
      seed: settings.seed,
      config: JSON.stringify({ loops: settings.loops, baseImages: settings.baseImages }),
    },
  });
  return { row, settings };
}

// The lineage's base-image mapping, replaced: every later build of the lineage uses it.
export async function setLineageBaseImages(db: Db, lineage: Lineage, baseImages: BaseImageMapping | undefined): Promise<LoadedLineage> {
  const config = { ...JSON.parse(lineage.config), baseImages };
  const row = await db.lineage.update({ where: { id: lineage.id }, data: { config: JSON.stringify(config) } });
  return { row, settings: settingsOf(row) };
}

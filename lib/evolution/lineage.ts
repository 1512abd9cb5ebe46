// Lineages: a seed environment and the settings it evolves under.
import { z } from 'zod';
import { recordAudit, type AuditActor } from '../audit/index.ts';
import { SANDBOX_RUNTIMES, type SchedulerConfig } from '../config/index.ts';
import type { Db, Lineage } from '../db/index.ts';
import { getVersion } from '../env/index.ts';
import { InvalidInputError, NotFoundError, RefusedError } from '../errors/index.ts';
import { lineageGate, gatePolicyRefusal, TRAINER_POLICY } from '../gate/index.ts';
import type { BaseImageMapping, SandboxRuntime } from '../sandbox/index.ts';
import { buildMirrorsSchema, mirrorsRecord, type BuildMirrors } from '../sandbox/index.ts';
import { describeAxisPolicy, lineageSettingsSchema, type LineageSettings, type LineageSettingsInput } from './config.ts';
import { priorsVersionOf } from './lineage-priors.ts';
import { recordSeedFunnelOverride, seedFunnelRefusal } from './seed-funnel.ts';

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
    sandboxRuntime: JSON.parse(row.config).sandboxRuntime,
    buildMirrors: row.buildMirrors === null ? undefined : JSON.parse(row.buildMirrors),
  });
}

export async function loadLineage(db: Db, lineageId: string): Promise<LoadedLineage> {
  const row = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!row) throw new NotFoundError(`lineage ${lineageId} not found`);
  return { row, settings: settingsOf(row) };
}

// A new lineage's release gate: the policy whose groups release it (trainer unless chosen), and
// whether it is the demo lineage (the only one the simulated policy may gate).
export interface NewLineageGate {
  probePolicy: string;
  demoMode?: boolean;
}

// Asking the seed funnel before a lineage is made or continued (seed-funnel.ts): refused unless the
// funnel keeps the seed or the lineage was already admitted, or an override with a reason is given,
// which is then recorded on the lineage.
export interface SeedFunnelAdmission {
  config: SchedulerConfig; // the default gate of a lineage that names none
  override?: { actor: AuditActor; reason: string; demoMode?: boolean };
}

// `envolve evolve` continues the lineage of the same seed and settings, or starts one gated by
// `gate`, measuring D under `priors` ("reference" or a fitted version; absent: the shipped table).
export async function findOrCreateLineage(
  db: Db,
  seedVersionId: string,
  input: LineageSettingsInput,
  gate: NewLineageGate = { probePolicy: TRAINER_POLICY },
  admission?: SeedFunnelAdmission,
  priors?: string,
): Promise<LoadedLineage> {
  const settings = lineageSettingsSchema.parse(input);
  const refusal = gatePolicyRefusal(gate.probePolicy, gate.demoMode ?? false);
  if (refusal) throw new RefusedError(refusal, { code: 'gate_policy_refused' });
  const seed = await getVersion(db, seedVersionId);
  if (!seed) throw new Error(`environment version ${seedVersionId} not found`);
  // Checked before any row is written: a fitted version that is not stored makes no lineage.
  const priorsVersion = priors === undefined ? undefined : await priorsVersionOf(db, priors);
  const axisPolicy = JSON.stringify(settings.axisPolicy);
  const existing = await db.lineage.findFirst({
    where: { seedVersionId, axisPolicy, effort: settings.effort, synthesiser: settings.synthesiser, seed: settings.seed },
    orderBy: { createdAt: 'asc' },
  });
  if (existing) refuseRuntimeChange(existing, settings.sandboxRuntime);
  if (existing) refusePriorsChange(existing, priorsVersion);
  const notKept = admission
    ? await seedFunnelRefusal(db, { seedVersionId, policy: existing ? lineageGate(existing, admission.config).policy : gate.probePolicy, lineage: existing })
    : null;
  if (notKept && !admission?.override) throw notKept;
  const loaded = existing
    ? await continuedLineage(db, existing, input, settings)
    : await createLineage(db, seed.name, seedVersionId, settings, gate, priorsVersion ?? null);
  if (!notKept || !admission?.override) return loaded;
  const { actor, ...override } = admission.override;
  return { row: await recordSeedFunnelOverride(db, actor, loaded.row.id, { ...override, verdict: notKept.verdict }), settings: loaded.settings };
}

async function continuedLineage(db: Db, existing: Lineage, input: LineageSettingsInput, settings: LineageSettings): Promise<LoadedLineage> {
  if (!input.baseImages) return { row: existing, settings: settingsOf(existing) };
  return setLineageBaseImages(db, existing, settings.baseImages);
}

async function createLineage(
  db: Db,
  seedName: string,
  seedVersionId: string,
  settings: LineageSettings,
  gate: NewLineageGate,
  priorsVersion: string | null,
): Promise<LoadedLineage> {
  const row = await db.lineage.create({
    data: {
      name: `${seedName} · ${describeAxisPolicy(settings.axisPolicy)} · ${settings.effort}`,
      seedVersionId,
      axisPolicy: JSON.stringify(settings.axisPolicy),
      effort: settings.effort,
      synthesiser: settings.synthesiser,
      seed: settings.seed,
      config: JSON.stringify({ loops: settings.loops, baseImages: settings.baseImages, sandboxRuntime: settings.sandboxRuntime }),
      probePolicy: gate.probePolicy,
      demoMode: gate.demoMode ?? false,
      priorsVersion,
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

// Continuing a lineage never changes its runtime on the side: that is an audited change of its own.
function refuseRuntimeChange(lineage: Lineage, requested: SandboxRuntime | undefined): void {
  const current = settingsOf(lineage).sandboxRuntime;
  if (requested === undefined || requested === current) return;
  throw new InvalidInputError(
    `lineage ${lineage.id} runs under ${current ?? "the deployment's default runtime"}; ` +
      `change it with \`envolve lineage sandbox-runtime ${lineage.id} ${requested}\` (audited), then continue it`,
  );
}

// Continuing a lineage never switches its priors on the side either: its D series would change table mid-way unannounced.
function refusePriorsChange(lineage: Lineage, requested: string | null | undefined): void {
  if (requested === undefined || requested === lineage.priorsVersion) return;
  const named = (v: string | null) => v ?? 'the shipped reference table';
  throw new InvalidInputError(
    `lineage ${lineage.id} measures D under ${named(lineage.priorsVersion)}, not ${named(requested)}; ` +
      `change it with \`envolve lineage priors ${lineage.id} ${requested ?? 'reference'}\` (audited), then continue it`,
  );
}

// null: back to the deployment's default.
export const lineageSandboxRuntimePatchSchema = z.object({ sandboxRuntime: z.enum(SANDBOX_RUNTIMES).nullable() }).strict();
export type LineageSandboxRuntimePatch = z.infer<typeof lineageSandboxRuntimePatchSchema>;

/** Sets the runtime of every later sandbox use on the lineage's behalf; audited. */
export async function setLineageSandboxRuntime(db: Db, actor: AuditActor, lineageId: string, patch: LineageSandboxRuntimePatch): Promise<LoadedLineage> {
  return db.$transaction(async (tx) => {
    const before = await tx.lineage.findUnique({ where: { id: lineageId } });
    if (!before) throw new NotFoundError(`lineage ${lineageId} not found`);
    const config = { ...JSON.parse(before.config), sandboxRuntime: patch.sandboxRuntime ?? undefined };
    const row = await tx.lineage.update({ where: { id: lineageId }, data: { config: JSON.stringify(config) } });
    await recordAudit(tx, {
      actor,
      action: 'lineage.sandbox-runtime',
      subjectType: 'lineage',
      subjectId: lineageId,
      before: { sandboxRuntime: settingsOf(before).sandboxRuntime ?? null },
      after: { sandboxRuntime: patch.sandboxRuntime },
    });
    return { row, settings: settingsOf(row) };
  });
}

// null: back to the deployment's ENVOLVE_BUILD_* settings.
export const lineageBuildMirrorsPatchSchema = z.object({ buildMirrors: buildMirrorsSchema.nullable() }).strict();
export type LineageBuildMirrorsPatch = z.infer<typeof lineageBuildMirrorsPatchSchema>;

/** Sets the mirrors of every later build on the lineage's behalf; audited. */
export async function setLineageBuildMirrors(db: Db, actor: AuditActor, lineageId: string, patch: LineageBuildMirrorsPatch): Promise<LoadedLineage> {
  const { buildMirrors } = lineageBuildMirrorsPatchSchema.parse(patch);
  return db.$transaction(async (tx) => {
    const before = await tx.lineage.findUnique({ where: { id: lineageId } });
    if (!before) throw new NotFoundError(`lineage ${lineageId} not found`);
    const row = await tx.lineage.update({ where: { id: lineageId }, data: { buildMirrors: buildMirrors === null ? null : JSON.stringify(buildMirrors) } });
    // Recorded as a run records them: by setting name, passwords left out.
    const shown = (m: BuildMirrors | undefined) => (m ? mirrorsRecord(m) : null);
    await recordAudit(tx, {
      actor,
      action: 'lineage.build-mirrors',
      subjectType: 'lineage',
      subjectId: lineageId,
      before: { buildMirrors: shown(settingsOf(before).buildMirrors) },
      after: { buildMirrors: shown(buildMirrors ?? undefined) },
    });
    return { row, settings: settingsOf(row) };
  });
}

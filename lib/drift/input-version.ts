// The version of the drift page's inputs: one counter the database itself bumps, by triggers, in the
// transaction of every write to a row the page reads (created by the migration named below, for
// each provider). Whichever process writes (a worker, the web server, the CLI), every process sees
// the version move with the data, so a memo keyed by it is never stale.
import type { Db } from '../db/index.ts';

export const DRIFT_INPUT_MIGRATION = '20261206054409_drift_input_version';

// The tables the drift page reads (load.ts, calibration.ts, frontier-waits.ts, checkpoints.ts).
// Rollouts count only in a group (or by their version, for calibration staleness); audit events
// only as gate changes. A new read of another table needs its triggers in a new migration.
export const DRIFT_INPUT_TABLES = [
  'Attempt',
  'AuditEvent',
  'CalibrationItem',
  'CalibrationSet',
  'EnvironmentFile',
  'EnvironmentVersion',
  'Generation',
  'Lineage',
  'PlanRound',
  'ProbeGroup',
  'Rollout',
] as const;

/** The current version, or null when the version row is missing (then nothing may be memoised). */
export async function driftInputVersion(db: Db): Promise<bigint | null> {
  const row = await db.driftInputVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  return row?.version ?? null;
}

/** The tables that carry a drift-input trigger, as the database reports them. */
export async function tablesWithDriftInputTriggers(db: Db, provider: 'sqlite' | 'postgresql'): Promise<string[]> {
  const rows =
    provider === 'postgresql'
      ? await db.$queryRaw<
          { table: string }[]
        >`SELECT DISTINCT c.relname AS "table" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname LIKE 'drift_input_%'`
      : await db.$queryRaw<{ table: string }[]>`SELECT DISTINCT tbl_name AS "table" FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'drift_input_%'`;
  return rows.map((r) => r.table).sort();
}

// Which calibration sets measured a verifier that has changed since (lib/calibration decides).
import { isCalibrationStale } from '../calibration/index.ts';
import type { Db } from '../db/index.ts';
import type { CalibrationStatus } from './alerts.ts';

export async function loadCalibrationStatuses(db: Db): Promise<CalibrationStatus[]> {
  const sets = await db.calibrationSet.findMany({ select: { id: true, name: true, verifierVersion: true }, orderBy: { createdAt: 'asc' } });
  const statuses: CalibrationStatus[] = [];
  for (const set of sets) statuses.push({ ...set, stale: await isCalibrationStale(db, set.id) });
  return statuses;
}

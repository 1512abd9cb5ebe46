// One call for the page and the routes: load, then compute the view for a filter.
import type { Db } from '../db/client.ts';
import type { AlertThresholds } from './alerts.ts';
import { loadCalibrationStatuses } from './calibration.ts';
import type { DriftFilter } from './filters.ts';
import { loadDrift } from './load.ts';
import { driftView, type DriftView } from './view.ts';

export async function loadDriftView(db: Db, filter: DriftFilter, thresholds: AlertThresholds, now = new Date()): Promise<DriftView> {
  const [input, calibration] = await Promise.all([loadDrift(db), loadCalibrationStatuses(db)]);
  return driftView(input, filter, { calibration, thresholds, now });
}

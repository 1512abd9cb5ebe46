// Alerts for leads: where evolution stopped producing learnable difficulty. Thresholds are
// configurable (URL parameters on /api/drift/alerts and the page); every alert names the
// lineage or generation it is about and links there.
import { z } from 'zod';
import { pointsByLineage } from './series.ts';
import { mean } from './stats.ts';
import type { DriftInput, GenerationPoint, LineageInfo } from './types.ts';

export const alertThresholdsSchema = z.object({
  stalledDays: z.coerce.number().min(0).max(3650).default(7), // no generation released for this long
  waitingHours: z.coerce.number().min(0).max(87_600).default(24), // a frontier without a group that counts for this long
  flatGenerations: z.coerce.number().int().min(2).max(100).default(4), // difficulty flat over the last k positions
  flatTolerance: z.coerce.number().min(0).max(1000).default(0.5), // "flat": max − min of D within this
  noSignalGenerations: z.coerce.number().int().min(1).max(100).default(3), // probes at 0/n or n/n this many times in a row
  spikeRate: z.coerce.number().min(0).max(1).default(0.6), // a rejection rate at least this…
  spikeOverBaseline: z.coerce.number().min(0).max(1).default(0.3), // …and this far above the lineage's earlier mean
  spikeRecent: z.coerce.number().int().min(1).max(100).default(3), // only the latest positions count as a spike
});
export type AlertThresholds = z.infer<typeof alertThresholdsSchema>;
export const DEFAULT_ALERT_THRESHOLDS: AlertThresholds = alertThresholdsSchema.parse({});

export type AlertKind = 'waiting-for-group' | 'stalled' | 'flat-difficulty' | 'no-signal' | 'rejection-spike' | 'calibration-stale';

export interface DriftAlert {
  kind: AlertKind;
  severity: 'warning' | 'critical';
  title: string;
  detail: string;
  lineageId: string | null;
  lineageName: string | null;
  generationId: string | null;
  generationNumber: number | null;
  calibrationSetId: string | null;
  href: string; // where the alert is about: the lineage's drift view, the generation or the set
}

/** A calibration set and whether the verifier it measured has changed since it was sampled. */
export interface CalibrationStatus {
  id: string;
  name: string;
  stale: boolean;
  verifierVersion: string;
}

const DAY_MS = 86_400_000;

function lineageAlert(lineage: LineageInfo, fields: Pick<DriftAlert, 'kind' | 'severity' | 'title' | 'detail'> & { at?: GenerationPoint }): DriftAlert {
  return {
    kind: fields.kind,
    severity: fields.severity,
    title: fields.title,
    detail: fields.detail,
    lineageId: lineage.id,
    lineageName: lineage.name,
    generationId: fields.at?.generationId ?? null,
    generationNumber: fields.at?.number ?? null,
    calibrationSetId: null,
    href: fields.at?.generationId ? `/generations/${fields.at.generationId}` : `/drift?lineage=${encodeURIComponent(lineage.id)}`,
  };
}

function stalled(lineage: LineageInfo, t: AlertThresholds, now: Date): DriftAlert | null {
  const since = lineage.lastReleasedAt ?? lineage.createdAt;
  const days = (now.getTime() - since.getTime()) / DAY_MS;
  if (days < t.stalledDays) return null;
  const whole = Math.floor(days);
  return lineageAlert(lineage, {
    kind: 'stalled',
    severity: days >= 2 * t.stalledDays ? 'critical' : 'warning',
    title: 'No generation released',
    detail: lineage.lastReleasedAt
      ? `last release ${whole} days ago (threshold ${t.stalledDays} days)`
      : `nothing released since it started ${whole} days ago (threshold ${t.stalledDays} days)`,
  });
}

const HOUR_MS = 3_600_000;

function waitingForGroup(lineage: LineageInfo, t: AlertThresholds, now: Date): DriftAlert | null {
  const wait = lineage.frontierWait;
  if (!wait) return null;
  const hours = (now.getTime() - wait.since.getTime()) / HOUR_MS;
  if (hours < t.waitingHours) return null;
  return lineageAlert(lineage, {
    kind: 'waiting-for-group',
    severity: hours >= 2 * t.waitingHours ? 'critical' : 'warning',
    title: 'Frontier waiting for a group',
    detail: `${wait.reason}, for ${Math.floor(hours)} h (threshold ${t.waitingHours} h): nothing is released until it arrives`,
  });
}

function flatDifficulty(lineage: LineageInfo, points: GenerationPoint[], t: AlertThresholds): DriftAlert | null {
  const withD = points.filter((p) => p.values.difficultyTotal !== null);
  if (withD.length < t.flatGenerations) return null;
  const window = withD.slice(-t.flatGenerations);
  const values = window.map((p) => p.values.difficultyTotal as number);
  const range = Math.max(...values) - Math.min(...values);
  if (range > t.flatTolerance) return null;
  return lineageAlert(lineage, {
    kind: 'flat-difficulty',
    severity: 'warning',
    title: 'Difficulty flat',
    detail: `D moved ${range.toFixed(2)} over generations ${window[0]!.number}–${window[window.length - 1]!.number} (tolerance ${t.flatTolerance})`,
  });
}

function noSignal(lineage: LineageInfo, points: GenerationPoint[], t: AlertThresholds): DriftAlert | null {
  const probed = points.filter((p) => p.probe && p.probe.size > 0);
  if (probed.length < t.noSignalGenerations) return null;
  const window = probed.slice(-t.noSignalGenerations);
  const extremes = window.map((p) => (p.probe!.passes === 0 ? 'none' : p.probe!.passes === p.probe!.size ? 'all' : 'some'));
  if (extremes.includes('some')) return null;
  const last = window[window.length - 1]!;
  const shown = window.map((p) => `G${p.number} ${p.probe!.passes}/${p.probe!.size}`).join(', ');
  return lineageAlert(lineage, {
    kind: 'no-signal',
    severity: 'critical',
    title: extremes.every((e) => e === 'none')
      ? 'No signal: every probe fails'
      : extremes.every((e) => e === 'all')
        ? 'No signal: every probe passes'
        : 'No signal: probes all-or-nothing',
    detail: `${shown}: a group with no partial success gives GRPO zero advantage`,
    at: last,
  });
}

function rejectionSpike(lineage: LineageInfo, points: GenerationPoint[], t: AlertThresholds): DriftAlert | null {
  const rated = points.filter((p) => p.values.rejectionRate !== null);
  for (let i = rated.length - 1; i >= Math.max(0, rated.length - t.spikeRecent); i -= 1) {
    const point = rated[i]!;
    const earlier = rated.slice(0, i).map((p) => p.values.rejectionRate as number);
    if (earlier.length < 2) continue;
    const rate = point.values.rejectionRate as number;
    const baseline = mean(earlier);
    if (rate >= t.spikeRate && rate - baseline >= t.spikeOverBaseline) {
      return lineageAlert(lineage, {
        kind: 'rejection-spike',
        severity: 'warning',
        title: 'Validator rejections spiking',
        detail: `${Math.round(rate * 100)}% of attempts rejected at generation ${point.number}, against ${Math.round(baseline * 100)}% before`,
        at: point,
      });
    }
  }
  return null;
}

function calibrationStale(set: CalibrationStatus): DriftAlert {
  return {
    kind: 'calibration-stale',
    severity: 'warning',
    title: 'Calibration set older than its verifier',
    detail: `${set.name} was labelled against verifier ${set.verifierVersion.slice(0, 12)}; the tests it measures have changed since`,
    lineageId: null,
    lineageName: null,
    generationId: null,
    generationNumber: null,
    calibrationSetId: set.id,
    href: `/calibration/${encodeURIComponent(set.id)}`,
  };
}

const KIND_ORDER: AlertKind[] = ['no-signal', 'waiting-for-group', 'stalled', 'rejection-spike', 'flat-difficulty', 'calibration-stale'];

/** Every alert, critical first, then by kind and lineage name. */
export function driftAlerts(input: DriftInput, calibration: CalibrationStatus[], t: AlertThresholds, now: Date): DriftAlert[] {
  const alerts: DriftAlert[] = [];
  const byLineage = pointsByLineage(input);
  for (const lineage of input.lineages) {
    const points = byLineage.get(lineage.id) ?? [];
    for (const alert of [
      waitingForGroup(lineage, t, now),
      stalled(lineage, t, now),
      flatDifficulty(lineage, points, t),
      noSignal(lineage, points, t),
      rejectionSpike(lineage, points, t),
    ]) {
      if (alert) alerts.push(alert);
    }
  }
  for (const set of calibration) if (set.stale) alerts.push(calibrationStale(set));
  const severity = (a: DriftAlert) => (a.severity === 'critical' ? 0 : 1);
  return alerts.sort(
    (a, b) =>
      severity(a) - severity(b) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      (a.lineageName ?? '').localeCompare(b.lineageName ?? '') ||
      (a.lineageId ?? a.calibrationSetId ?? '').localeCompare(b.lineageId ?? b.calibrationSetId ?? ''),
  );
}

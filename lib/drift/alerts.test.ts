import { describe, expect, it } from 'vitest';
import { alertThresholdsSchema, DEFAULT_ALERT_THRESHOLDS, driftAlerts } from './alerts.ts';
import { driftInput, lineageInfo, type PositionSpec } from '../../test/fixtures/drift-input.ts';

const NOW = new Date('2026-03-01T00:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
const recent = { lastReleasedAt: daysAgo(1) };
const kinds = (positions: PositionSpec[], info = lineageInfo('L', recent)) =>
  driftAlerts(driftInput([{ info, positions }]), [], DEFAULT_ALERT_THRESHOLDS, NOW).map((a) => a.kind);

describe('drift alerts', () => {
  it('raises nothing for a healthy lineage', () => {
    expect(
      kinds([
        { probe: [3, 8], values: { difficultyTotal: 10 } },
        { probe: [6, 8], values: { difficultyTotal: 12, rejectionRate: 0.2 } },
      ]),
    ).toEqual([]);
  });

  it('flags a lineage with no release for the configured time, critical at twice that', () => {
    const stalled = driftAlerts(driftInput([{ info: lineageInfo('L', { lastReleasedAt: daysAgo(9) }), positions: [{}] }]), [], DEFAULT_ALERT_THRESHOLDS, NOW);
    expect(stalled).toEqual([
      expect.objectContaining({
        kind: 'stalled',
        severity: 'warning',
        lineageId: 'L',
        href: '/drift?lineage=L',
        detail: expect.stringContaining('9 days ago'),
      }),
    ]);
    const never = driftAlerts(driftInput([{ info: lineageInfo('L', { createdAt: daysAgo(20) }), positions: [{}] }]), [], DEFAULT_ALERT_THRESHOLDS, NOW);
    expect(never[0]).toMatchObject({ severity: 'critical', detail: expect.stringContaining('nothing released since it started 20 days ago') });
    expect(kinds([{}], lineageInfo('L', { lastReleasedAt: daysAgo(6.9) }))).toEqual([]);
  });

  it('flags a frontier that has waited for a group that counts longer than the configured hours, critical at twice that', () => {
    const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
    const waiting = (h: number) => lineageInfo('L', { ...recent, frontierWait: { reason: 'waiting for a complete trainer group on G2', since: hoursAgo(h) } });
    expect(kinds([{}], waiting(23))).toEqual([]);
    const alerts = driftAlerts(driftInput([{ info: waiting(30), positions: [{}] }]), [], DEFAULT_ALERT_THRESHOLDS, NOW);
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'waiting-for-group',
        severity: 'warning',
        detail: 'waiting for a complete trainer group on G2, for 30 h (threshold 24 h): nothing is released until it arrives',
      }),
    ]);
    expect(driftAlerts(driftInput([{ info: waiting(48), positions: [{}] }]), [], DEFAULT_ALERT_THRESHOLDS, NOW)[0]?.severity).toBe('critical');
    const sooner = alertThresholdsSchema.parse({ waitingHours: '2' });
    expect(driftAlerts(driftInput([{ info: waiting(3), positions: [{}] }]), [], sooner, NOW).map((a) => a.kind)).toEqual(['waiting-for-group']);
  });

  it('flags difficulty flat over the last k positions, within the tolerance', () => {
    const d = (values: number[]) => values.map((v) => ({ values: { difficultyTotal: v } }));
    expect(kinds(d([10, 12, 12.1, 12.2, 12.4]))).toEqual(['flat-difficulty']);
    expect(kinds(d([10, 12, 12.1, 12.2, 12.6]))).toEqual([]);
    expect(kinds(d([12, 12, 12]))).toEqual([]); // fewer than k = 4 positions: no judgement yet
  });

  it('flags k probes in a row at 0/n or n/n, linking the latest generation', () => {
    const alerts = driftAlerts(
      driftInput([{ info: lineageInfo('L', recent), positions: [{ probe: [4, 8] }, { probe: [0, 8] }, { probe: [8, 8] }, { probe: [0, 8] }] }]),
      [],
      DEFAULT_ALERT_THRESHOLDS,
      NOW,
    );
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'no-signal',
        severity: 'critical',
        title: 'No signal: probes all-or-nothing',
        generationId: 'L-g3',
        generationNumber: 3,
        href: '/generations/L-g3',
      }),
    ]);
    expect(alerts[0]?.detail).toContain('G1 0/8, G2 8/8, G3 0/8');
    expect(kinds([{ probe: [0, 8] }, { probe: [0, 8] }, { probe: [1, 8] }])).toEqual([]);
    expect(kinds([{ probe: [0, 8] }, { probe: [0, 8] }, {}, { probe: [0, 8] }])).toEqual(['no-signal']); // unprobed positions do not break the run
  });

  it('flags a rejection rate far above the lineage baseline among the latest positions', () => {
    const r = (rates: (number | null)[]) => rates.map((v) => ({ values: { rejectionRate: v } }));
    expect(kinds(r([null, 0.2, 0.3, 0.25, 0.8]))).toEqual(['rejection-spike']);
    expect(kinds(r([null, 0.5, 0.6, 0.55, 0.8]))).toEqual([]); // only 0.25 above its baseline
    expect(kinds(r([null, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1]))).toEqual([]); // the spike is older than the latest 3
    expect(kinds(r([null, 0.9, 0.1]))).toEqual([]); // needs two earlier rates for a baseline
  });

  it('flags stale calibration sets, and sorts critical alerts first', () => {
    const input = driftInput([
      { info: lineageInfo('A', { name: 'a', lastReleasedAt: daysAgo(8) }), positions: [{}] },
      { info: lineageInfo('B', { name: 'b', ...recent }), positions: [{ probe: [8, 8] }, { probe: [8, 8] }, { probe: [8, 8] }] },
    ]);
    const alerts = driftAlerts(
      input,
      [
        { id: 'cal-1', name: 'set one', verifierVersion: 'f'.repeat(64), stale: true },
        { id: 'cal-2', name: 'set two', verifierVersion: 'e'.repeat(64), stale: false },
      ],
      DEFAULT_ALERT_THRESHOLDS,
      NOW,
    );
    expect(alerts.map((a) => [a.kind, a.lineageId ?? a.calibrationSetId])).toEqual([
      ['no-signal', 'B'],
      ['stalled', 'A'],
      ['calibration-stale', 'cal-1'],
    ]);
    expect(alerts[0]?.title).toBe('No signal: every probe passes');
    expect(alerts[2]?.href).toBe('/calibration/cal-1');
  });

  it('reads thresholds from query strings', () => {
    expect(alertThresholdsSchema.parse({ stalledDays: '3', noSignalGenerations: '2' })).toMatchObject({
      stalledDays: 3,
      noSignalGenerations: 2,
      flatGenerations: 4,
    });
    expect(alertThresholdsSchema.safeParse({ flatGenerations: '1' }).success).toBe(false);
  });
});

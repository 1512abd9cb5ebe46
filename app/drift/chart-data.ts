// The drift page's data reshaped for the client charts: compact arrays, values rounded to what a
// chart can show, generation ids only where points link somewhere (one lineage).
import { wireBand, wireLine, type DriftPage, type Metric, type MetricChart, type WireBand } from '@/lib/drift/index.ts';
import type { ValueFormat } from './chart-format.ts';

// The band as GET /api/drift sends it: one array per field, values rounded.
export type ClientBand = WireBand;

export interface ClientSeries {
  metric: Metric;
  label: string;
  color: string;
  band: ClientBand;
  showBand: boolean;
}

export interface ClientLine {
  lineageId: string;
  xs: number[];
  ys: number[];
  gaps: number[]; // indices of points the line must not be joined to from the previous one
  ids?: (string | null)[]; // generation ids, in the per-lineage view
  numbers?: (number | null)[];
  axes?: (string | null)[];
}

export interface ChartSpec {
  id: string;
  title: string;
  subtitle: string;
  yLabel: string; // the y-axis title, with its unit
  format: ValueFormat;
  yMin?: number;
  yMax?: number;
  reference?: { y: number; label: string };
  series: ClientSeries[]; // the first one's lines are drawn per lineage
  lines: ClientLine[];
}

const series = (chart: MetricChart, label: string, color: string, showBand: boolean): ClientSeries => ({
  metric: chart.metric,
  label,
  color,
  band: wireBand(chart.band),
  showBand,
});

export type PositionIndex = Map<string, { number: number; axis: string | null }>;

// The lines as GET /api/drift sends them; one lineage's also name their generations.
function lines(chart: MetricChart, withIds: boolean, positions: PositionIndex): ClientLine[] {
  const of = (id: string | null) => (id ? positions.get(id) : undefined);
  return chart.lines.map((line) => {
    const { lineageId, xs, ys, gaps } = wireLine(line);
    if (!withIds) return { lineageId, xs, ys, gaps };
    const points = line.points;
    return {
      lineageId,
      xs,
      ys,
      gaps,
      ids: points.map((p) => p.generationId),
      numbers: points.map((p) => of(p.generationId)?.number ?? (p.generationId ? null : 0)),
      axes: points.map((p) => of(p.generationId)?.axis ?? null),
    };
  });
}

export const SERIES_COLORS = {
  total: '#4f46e5',
  length: '#0284c7',
  scenario: '#d97706',
  skill: '#059669',
  passRate: '#2563eb',
  meanTurns: '#7c3aed',
  tokensPerTurn: '#0891b2',
  rejectionRate: '#dc2626',
  modifyRounds: '#7c3aed',
  planRounds: '#db2777',
} as const;

export function chartSpecs(view: DriftPage, axisOf: PositionIndex): ChartSpec[] {
  const single = Boolean(view.filter.lineage);
  // Rates and turns come from probes: the legend names whose.
  const probes = view.passRatePolicy.label.replace(/^pass rates of /, 'probes of ');
  const probed = (label: string) => `${label} · ${probes}`;
  const c = view.charts;
  const many = !single;
  return [
    {
      id: 'difficulty',
      title: 'Difficulty D = L + novelty + rarity',
      subtitle: 'off-policy difficulty of each generation’s version and its three components',
      yLabel: 'D (turns + novelty + rarity)',
      format: 'number',
      series: [
        series(c.difficultyTotal, 'D (sum)', SERIES_COLORS.total, true),
        series(c.difficultyLength, 'L (turns)', SERIES_COLORS.length, false),
        series(c.difficultyScenario, 'scenario novelty', SERIES_COLORS.scenario, false),
        series(c.difficultySkill, 'skill rarity', SERIES_COLORS.skill, false),
      ],
      lines: lines(c.difficultyTotal, single, axisOf),
    },
    {
      id: 'passRate',
      title: 'Probe pass rate',
      subtitle: 'latest complete probe of each generation (passes / rollouts)',
      yLabel: 'pass rate (% of rollouts)',
      format: 'percent',
      yMin: 0,
      yMax: 1,
      reference: { y: 0.75, label: '6/8 release bar' },
      series: [series(c.passRate, probed('pass rate'), SERIES_COLORS.passRate, many)],
      lines: lines(c.passRate, single, axisOf),
    },
    {
      id: 'meanTurns',
      title: 'Mean turns per trajectory',
      subtitle: 'agent turns per probe rollout',
      yLabel: 'turns per rollout',
      format: 'integer',
      yMin: 0,
      series: [series(c.meanTurns, probed('mean turns'), SERIES_COLORS.meanTurns, many)],
      lines: lines(c.meanTurns, single, axisOf),
    },
    {
      id: 'tokensPerTurn',
      title: 'Tokens per turn',
      subtitle: 'prompt + completion tokens per turn, where the policy reports tokens',
      yLabel: 'tokens per turn',
      format: 'integer',
      series: [series(c.tokensPerTurn, probed('tokens / turn'), SERIES_COLORS.tokensPerTurn, many)],
      lines: lines(c.tokensPerTurn, single, axisOf),
    },
    {
      id: 'rejectionRate',
      title: 'Validator rejection rate',
      subtitle: 'invalid attempts / judged attempts per generation',
      yLabel: 'rejected (% of judged attempts)',
      format: 'percent',
      yMin: 0,
      yMax: 1,
      series: [series(c.rejectionRate, 'rejected', SERIES_COLORS.rejectionRate, many)],
      lines: lines(c.rejectionRate, single, axisOf),
    },
    {
      id: 'rounds',
      title: 'Plan-review and modify rounds',
      subtitle: 'loop 1 proposals and loop 2 attempts per generation',
      yLabel: 'rounds per generation',
      format: 'integer',
      yMin: 0,
      series: [series(c.modifyRounds, 'modify rounds', SERIES_COLORS.modifyRounds, many), series(c.planRounds, 'plan rounds', SERIES_COLORS.planRounds, many)],
      lines: lines(c.modifyRounds, single, axisOf),
    },
  ];
}

/** Every metric a chart draws, for its CSV links. */
export const CHART_METRICS: Record<string, Metric[]> = {
  difficulty: ['difficultyTotal', 'difficultyLength', 'difficultyScenario', 'difficultySkill'],
  passRate: ['passRate'],
  meanTurns: ['meanTurns'],
  tokensPerTurn: ['tokensPerTurn'],
  rejectionRate: ['rejectionRate'],
  rounds: ['modifyRounds', 'planRounds'],
};

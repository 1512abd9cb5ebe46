// The Prometheus text exposition format (version 0.0.4) for /api/metrics: the drift series
// per lineage, the job queue, job turnaround and sandbox failures, so Grafana can watch Envolve.
import { pointsByLineage } from './series.ts';
import type { DriftAlert } from './alerts.ts';
import type { CheckpointPassRate } from './checkpoints.ts';
import type { DriftInput } from './types.ts';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Record<string, string>;

export interface Sample {
  suffix?: '_bucket' | '_sum' | '_count';
  labels: Labels;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter' | 'histogram';
  samples: Sample[];
}

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
}

export function renderExposition(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const s of family.samples) lines.push(`${family.name}${s.suffix ?? ''}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Cumulative buckets (upper bounds in ascending order, +Inf added), sum and count of observations. */
export function histogramSamples(labels: Labels, bounds: readonly number[], observations: readonly number[]): Sample[] {
  const samples: Sample[] = [...bounds, Number.POSITIVE_INFINITY].map((le) => ({
    suffix: '_bucket' as const,
    labels: { ...labels, le: formatValue(le) },
    value: observations.filter((o) => o <= le).length,
  }));
  samples.push({ suffix: '_sum', labels, value: observations.reduce((sum, o) => sum + o, 0) });
  samples.push({ suffix: '_count', labels, value: observations.length });
  return samples;
}

export const JOB_TURNAROUND_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 14_400];

export interface QueueRow {
  kind: string;
  state: string;
  count: number;
}

export interface FinishedJob {
  kind: string;
  seconds: number; // enqueued → finished
}

export interface MetricsInput {
  drift: DriftInput;
  checkpoints: CheckpointPassRate[]; // of the lineages' gating policies
  alerts: DriftAlert[];
  queue: QueueRow[];
  finishedJobs: FinishedJob[];
  finishedWindowSeconds: number;
  sandboxFailures: { validator: number; rollout: number };
}

export function metricFamilies(input: MetricsInput): MetricFamily[] {
  const byLineage = pointsByLineage(input.drift);
  const frontier: Sample[] = [];
  const passRate: Sample[] = [];
  const difficulty: Sample[] = [];
  const generations: Sample[] = [];
  for (const lineage of input.drift.lineages) {
    const labels = { lineage_id: lineage.id, lineage: lineage.name };
    const points = byLineage.get(lineage.id) ?? [];
    generations.push({ labels, value: points.filter((p) => p.number > 0).length });
    if (lineage.frontier !== null) {
      frontier.push({ labels, value: lineage.frontier });
      const at = points.find((p) => p.number === lineage.frontier);
      const { difficultyLength, difficultyScenario, difficultySkill, difficultyTotal } = at?.values ?? {};
      const components = { length: difficultyLength, scenario: difficultyScenario, skill: difficultySkill, total: difficultyTotal };
      for (const [component, value] of Object.entries(components)) {
        if (value !== null && value !== undefined) difficulty.push({ labels: { ...labels, component }, value });
      }
    }
    const probed = points.filter((p) => p.probe && p.probe.size > 0).at(-1);
    if (probed?.probe) {
      passRate.push({
        labels: { ...labels, generation: String(probed.number), policy: lineage.passRatePolicy ?? 'unknown', policy_version: probed.probe.policyVersion ?? '' },
        value: probed.probe.passes / probed.probe.size,
      });
    }
  }
  const alertCounts = new Map<string, number>();
  for (const a of input.alerts) alertCounts.set(a.kind, (alertCounts.get(a.kind) ?? 0) + 1);
  const kinds = [...new Set(input.finishedJobs.map((j) => j.kind))].sort();

  return [
    { name: 'envolve_lineage_frontier', help: 'Highest released generation number of the lineage (0 = the seed).', type: 'gauge', samples: frontier },
    { name: 'envolve_lineage_generations', help: 'Generation positions of the lineage after its seed.', type: 'gauge', samples: generations },
    {
      name: 'envolve_lineage_probe_pass_rate',
      help: "Pass rate (passes / size) of the latest complete group (probe or trainer report) of the lineage's gating policy; the generation, policy and policy_version (checkpoint) labels say which.",
      type: 'gauge',
      samples: passRate,
    },
    {
      name: 'envolve_policy_checkpoint_pass_rate',
      help: 'Pooled pass rate of the newest checkpoint (policy_version) of each gating policy over the groups it reported; each checkpoint was served the frontiers of its own time.',
      type: 'gauge',
      samples: input.checkpoints
        .filter((c) => c.newest && c.passRate !== null)
        .map((c) => ({ labels: { policy: c.policy, policy_version: c.policyVersion }, value: c.passRate as number })),
    },
    {
      name: 'envolve_policy_checkpoint_groups',
      help: 'Complete groups the newest checkpoint (policy_version) of each gating policy has reported.',
      type: 'gauge',
      samples: input.checkpoints.filter((c) => c.newest).map((c) => ({ labels: { policy: c.policy, policy_version: c.policyVersion }, value: c.groups })),
    },
    {
      name: 'envolve_lineage_frontier_difficulty',
      help: 'Off-policy difficulty of the frontier version: length, scenario novelty, skill rarity and their total.',
      type: 'gauge',
      samples: difficulty,
    },
    {
      name: 'envolve_drift_alerts',
      help: 'Drift alerts currently raised, by kind (see /api/drift/alerts).',
      type: 'gauge',
      samples: [...alertCounts].sort(([a], [b]) => a.localeCompare(b)).map(([kind, value]) => ({ labels: { kind }, value })),
    },
    {
      name: 'envolve_jobs',
      help: 'Jobs in the queue by kind and state (queued and running are the queue depth).',
      type: 'gauge',
      samples: input.queue.map((q) => ({ labels: { kind: q.kind, state: q.state }, value: q.count })),
    },
    {
      name: 'envolve_job_turnaround_seconds',
      help: `Seconds from enqueue to finish of the jobs that finished in the last ${input.finishedWindowSeconds} s.`,
      type: 'histogram',
      samples: kinds.flatMap((kind) =>
        histogramSamples(
          { kind },
          JOB_TURNAROUND_BUCKETS,
          input.finishedJobs.filter((j) => j.kind === kind).map((j) => j.seconds),
        ),
      ),
    },
    {
      name: 'envolve_sandbox_failures_total',
      help: 'Sandbox runs that ended in error: validator runs and rollouts.',
      type: 'counter',
      samples: [
        { labels: { source: 'validator' }, value: input.sandboxFailures.validator },
        { labels: { source: 'rollout' }, value: input.sandboxFailures.rollout },
      ],
    },
  ];
}

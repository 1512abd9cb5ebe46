import { describe, expect, it } from 'vitest';
import { histogramSamples, metricFamilies, renderExposition, type MetricsInput } from './prometheus.ts';
import { driftInput, lineageInfo } from '../../test/fixtures/drift-input.ts';

interface Parsed {
  types: Map<string, string>;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

// A strict reader of the text format: every sample belongs to a family declared by HELP and
// TYPE before it, names and labels are well formed, values are numbers.
function parseExposition(text: string): Parsed {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  const helped = new Set<string>();
  const samples: Parsed['samples'] = [];
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const sampleLine = new RegExp(`^(${name})(?:\\{(.*)\\})? (\\S+)$`);
  const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(?:,|$)/y;
  for (const line of text.slice(0, -1).split('\n')) {
    const meta = new RegExp(`^# (HELP|TYPE) (${name}) (.*)$`).exec(line);
    if (meta) {
      if (meta[1] === 'HELP') helped.add(meta[2]!);
      else {
        expect(['gauge', 'counter', 'histogram', 'summary', 'untyped']).toContain(meta[3]);
        expect(helped.has(meta[2]!)).toBe(true);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const match = sampleLine.exec(line);
    expect(match, `not a sample line: ${line}`).not.toBeNull();
    const [, sampleName, rawLabels = '', rawValue] = match!;
    const family = [...types.keys()].find(
      (f) => sampleName === f || (types.get(f) === 'histogram' && /^(_bucket|_sum|_count)$/.test(sampleName!.slice(f.length)) && sampleName!.startsWith(f)),
    );
    expect(family, `sample ${sampleName} before its TYPE`).toBeDefined();
    const labels: Record<string, string> = {};
    labelPair.lastIndex = 0;
    while (labelPair.lastIndex < rawLabels.length) {
      const pair = labelPair.exec(rawLabels);
      expect(pair, `bad labels: ${rawLabels}`).not.toBeNull();
      labels[pair![1]!] = pair![2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    const value = rawValue === '+Inf' ? Infinity : Number(rawValue);
    expect(Number.isNaN(value)).toBe(false);
    samples.push({ name: sampleName!, labels, value });
  }
  return { types, samples };
}

function input(): MetricsInput {
  const drift = driftInput([
    {
      info: lineageInfo('L1', { name: 'quote " and \\ and\nnewline', frontier: 1, passRatePolicy: 'trainer' }),
      positions: [
        { probe: [2, 8, 'step-10'], values: { difficultyLength: 3, difficultyScenario: 4, difficultySkill: 5, difficultyTotal: 12 } },
        { probe: [6, 8, 'step-20'], values: { difficultyLength: 4, difficultyScenario: 4, difficultySkill: 5, difficultyTotal: 13 } },
        { values: { difficultyTotal: 20 } },
      ],
    },
    { info: lineageInfo('L2', { name: 'unreleased' }), positions: [{}] },
  ]);
  const checkpoint = (policyVersion: string, newest: boolean, passes: number, groups: number) => ({
    policy: 'trainer',
    policyVersion,
    firstReportedAt: '2026-01-01T00:00:00.000Z',
    newest,
    groups,
    environments: groups,
    passes,
    rollouts: 8 * groups,
    passRate: passes / (8 * groups),
  });
  return {
    drift,
    checkpoints: [checkpoint('step-10', false, 2, 1), checkpoint('step-20', true, 12, 2)],
    alerts: [],
    queue: [
      { kind: 'validate', state: 'queued', count: 3 },
      { kind: 'probe', state: 'running', count: 1 },
    ],
    finishedJobs: [
      { kind: 'validate', seconds: 0.5 },
      { kind: 'validate', seconds: 12 },
      { kind: 'validate', seconds: 20_000 },
      { kind: 'probe', seconds: 70 },
    ],
    finishedWindowSeconds: 3600,
    sandboxFailures: { validator: 2, rollout: 5 },
  };
}

describe('the Prometheus exposition', () => {
  const parsed = parseExposition(renderExposition(metricFamilies(input())));
  const value = (name: string, labels: Record<string, string>) =>
    parsed.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

  it('is valid text format with HELP and TYPE for every family, labels escaped', () => {
    expect(parsed.types.get('envolve_job_turnaround_seconds')).toBe('histogram');
    expect(parsed.types.get('envolve_sandbox_failures_total')).toBe('counter');
    expect(value('envolve_lineage_frontier', { lineage_id: 'L1' })).toBe(1);
    expect(parsed.samples.find((s) => s.labels.lineage_id === 'L1')?.labels.lineage).toBe('quote " and \\ and\nnewline');
  });

  it('exposes the frontier, its difficulty and the latest probe per lineage', () => {
    expect(value('envolve_lineage_frontier', { lineage_id: 'L2' })).toBeUndefined(); // nothing released
    expect(value('envolve_lineage_generations', { lineage_id: 'L1' })).toBe(2);
    expect(value('envolve_lineage_frontier_difficulty', { lineage_id: 'L1', component: 'total' })).toBe(13);
    expect(value('envolve_lineage_frontier_difficulty', { lineage_id: 'L1', component: 'length' })).toBe(4);
    expect(value('envolve_lineage_probe_pass_rate', { lineage_id: 'L1', generation: '1', policy: 'trainer', policy_version: 'step-20' })).toBe(0.75);
  });

  it("exposes the newest checkpoint's pooled pass rate per gating policy, labelled with its version", () => {
    expect(value('envolve_policy_checkpoint_pass_rate', { policy: 'trainer', policy_version: 'step-20' })).toBe(0.75);
    expect(value('envolve_policy_checkpoint_groups', { policy: 'trainer', policy_version: 'step-20' })).toBe(2);
    expect(parsed.samples.filter((s) => s.labels.policy_version === 'step-10')).toEqual([]);
  });

  it('exposes queue depth, cumulative turnaround buckets and sandbox failures', () => {
    expect(value('envolve_jobs', { kind: 'validate', state: 'queued' })).toBe(3);
    expect(value('envolve_job_turnaround_seconds_bucket', { kind: 'validate', le: '1' })).toBe(1);
    expect(value('envolve_job_turnaround_seconds_bucket', { kind: 'validate', le: '15' })).toBe(2);
    expect(value('envolve_job_turnaround_seconds_bucket', { kind: 'validate', le: '14400' })).toBe(2);
    expect(value('envolve_job_turnaround_seconds_bucket', { kind: 'validate', le: '+Inf' })).toBe(3);
    expect(value('envolve_job_turnaround_seconds_count', { kind: 'validate' })).toBe(3);
    expect(value('envolve_job_turnaround_seconds_sum', { kind: 'probe' })).toBe(70);
    expect(value('envolve_sandbox_failures_total', { source: 'rollout' })).toBe(5);
  });

  it('keeps histogram buckets monotonic', () => {
    const buckets = histogramSamples({}, [1, 2, 3], [3, 1, 2, 2, 9])
      .filter((s) => s.suffix === '_bucket')
      .map((s) => s.value);
    expect(buckets).toEqual([1, 3, 4, 5]);
  });
});

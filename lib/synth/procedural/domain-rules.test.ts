// Every domain brings its own rule of which rows count, and its data makes the rule matter: the
// rows it excludes meet every key, category and text, so the sum, the top count and the time span
// a skill asks for differ from the same computation over every row (the parent question). The
// rule is stated in the instruction, applied in the solution's extract, and a parent-question
// near miss (the rule ignored) comes with every step that reads the file through it. The shell
// side is proved in Docker (test/synth/domain-rules.test.ts).
import { describe, expect, it } from 'vitest';
import { DOMAIN_NAMES, scenarioNamed } from './catalogue.ts';
import { generateRecords, type DataRecord, type FileRecord } from './records.ts';
import { createRng } from './rng.ts';
import { renderEnvironmentWithSteps } from './render.ts';
import { topByCount } from './skill.ts';
import { SCENARIOS } from './scenarios/index.ts';

// Which rows the rule keeps, computed in TypeScript from the rows alone: what a solution that
// applies the rule reads. Reversals cancel their entry; every other rule is a marker.
const COUNTED_ATTR: Record<string, (attr: string) => boolean> = {
  'web-access-log': (a) => !a.startsWith('kube-probe/'),
  'sensor-telemetry': (a) => a === 'true',
  'package-manifest': (a) => a === 'installed',
  'genomics-fasta': (a) => a === 'pass',
  'mail-spool': (a) => a !== 'D',
  'ci-artifacts': (a) => a === 'kept',
  'auth-syslog': (a) => a === 'bastion',
  'inventory-csv': (a) => a === 'final',
  'dns-zone': (a) => a === 'active',
  'kubernetes-events': (a) => a === 'Warning',
  'http-api-traces': (a) => a === '-',
  'app-config': (a) => a === 'true',
  'crontab-schedules': (a) => a === 'active',
  'library-catalog': (a) => a === 'shelved',
  'weather-observations': (a) => a === 'V',
};

function counted(domain: string, rows: FileRecord[]): FileRecord[] {
  if (domain !== 'payments-ledger') return rows.filter((r) => COUNTED_ATTR[domain]!(r.attr));
  const gone = new Set(rows.flatMap((r) => (r.attr.endsWith(' -') ? [] : r.attr.split(' '))));
  return rows.filter((r) => !gone.has(r.attr.split(' ')[0]!));
}

function recordsOf(domain: string, seed: number): DataRecord[] {
  const scenario = SCENARIOS.find((s) => s.name === domain)!;
  const rng = createRng(seed);
  const keys = scenario.makeKeys(rng);
  return generateRecords(rng, {
    count: rng.int(12, 60),
    keys,
    categories: scenario.categories,
    texts: scenario.texts,
    value: scenario.value,
    ensureCategory: scenario.categories[0]!,
    ensureKey: keys[0]!,
  });
}

const strip = ({ key, value, time, category, text }: DataRecord) => ({ key, value, time, category, text });
const sumOf = (rows: DataRecord[], category: string) => rows.filter((r) => r.category === category).reduce((t, r) => t + r.value, 0);
const span = (rows: DataRecord[], key: string) => {
  const times = rows.filter((r) => r.key === key).map((r) => r.time);
  return Math.max(...times) - Math.min(...times);
};

describe('domain rules', () => {
  it('every domain has a rule, and its rows keep exactly the counted records', () => {
    expect(Object.keys(COUNTED_ATTR).length + 1).toBe(DOMAIN_NAMES.length);
    for (const domain of DOMAIN_NAMES) {
      const scenario = SCENARIOS.find((s) => s.name === domain)!;
      for (const seed of [1, 2, 3]) {
        const records = recordsOf(domain, seed);
        const rows = scenario.rule.weave(records, scenario.value);
        expect(rows.length, domain).toBeGreaterThan(records.length);
        expect(counted(domain, rows).map(strip), domain).toEqual(records);
      }
    }
  });

  it('the excluded rows change every answer a skill computes: totals, sums per category, top counts, time spans per key, percentiles', () => {
    for (const domain of DOMAIN_NAMES) {
      const scenario = SCENARIOS.find((s) => s.name === domain)!;
      for (const seed of [1, 2, 3, 4, 5]) {
        const records = recordsOf(domain, seed);
        const all = scenario.rule.weave(records, scenario.value);
        for (const category of new Set(records.map((r) => r.category)))
          expect(sumOf(all, category), `${domain} ${category}`).not.toBe(sumOf(records, category));
        for (const key of new Set(records.map((r) => r.key))) expect(span(all, key), `${domain} ${key}`).not.toBe(span(records, key));
        // A file out of time order (date-arithmetic merges two hosts' logs) moves every span too.
        const reversed = [...records].reverse();
        const allReversed = scenario.rule.weave(reversed, scenario.value);
        for (const key of new Set(records.map((r) => r.key))) expect(span(allReversed, key), `${domain} ${key} out of order`).not.toBe(span(reversed, key));
        expect(topByCount(all.map((r) => r.key)), domain).not.toEqual(topByCount(records.map((r) => r.key)));
        const total = (rows: DataRecord[]) => rows.reduce((t, r) => t + r.value, 0);
        expect(total(all), domain).not.toBe(total(records));
        // The 90th percentile python-script asks for (nearest rank).
        const p90 = (rows: DataRecord[]) => rows.map((r) => r.value).sort((a, b) => a - b)[Math.ceil(0.9 * rows.length) - 1];
        expect(p90(all), domain).not.toBe(p90(records));
      }
    }
  });

  it('is stated in the instruction and ignored by a parent-question near miss, for skills that read the file', () => {
    for (const domain of DOMAIN_NAMES) {
      const scenario = scenarioNamed(domain);
      const sequence = {
        steps: [
          { id: 's1', scenario: domain, skill: 'awk-fields', dependsOn: [] },
          { id: 's2', scenario: `${domain}+jsonl+crlf`, skill: 'sort-uniq-count', dependsOn: [] },
          { id: 's3', scenario: domain, skill: 'jq-query', dependsOn: [] },
        ],
      };
      const { bundle, steps } = renderEnvironmentWithSteps(sequence, { seed: 9, name: 'rules' });
      const instruction = bundle.files.find((f) => f.path === 'instruction.md')!.content.toString();
      expect(instruction, domain).toContain(scenario.rule.describe);
      expect(steps[1]!.instruction, domain).toContain(`\`${scenario.rule.column}\` column`);
      for (const step of steps.slice(0, 2)) {
        const miss = step.parentQuestion;
        expect(miss?.name, domain).toBe('parent-question');
        expect(miss!.solve).toContain('| cut -f1-5; }');
        expect(miss!.solve.split('\n').slice(0, 2)).toEqual(step.solve.split('\n').slice(0, 2));
        expect(step.solve).toContain(scenarioNamed(step.step.scenario).extract);
      }
      // A column export is built from the counted records alone: no rule to state or to ignore.
      expect(steps[2]!.parentQuestion).toBeNull();
      expect(steps[2]!.instruction).not.toContain(scenario.rule.describe);
    }
  });
});

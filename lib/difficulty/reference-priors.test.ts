import { describe, expect, it } from 'vitest';
import { REFERENCE_TABLE, REFERENCE_VERSION, SCENARIO_EPSILON, SKILL_EPSILON } from './reference-priors.ts';

const SCENARIOS = [
  'web-access-log',
  'payments-ledger',
  'sensor-telemetry',
  'package-manifest',
  'genomics-fasta',
  'mail-spool',
  'ci-artifacts',
  'auth-syslog',
  'inventory-csv',
  'dns-zone',
  'kubernetes-events',
  'http-api-traces',
  'app-config',
  'crontab-schedules',
  'library-catalog',
  'weather-observations',
];
const SKILLS = [
  'awk-fields',
  'sort-uniq-count',
  'grep-regex',
  'sed-rewrite',
  'jq-query',
  'sqlite-sql',
  'join-tables',
  'tar-archive',
  'sha256-checksum',
  'date-arithmetic',
  'find-xargs',
  'file-permissions',
  'git-history',
  'config-parse',
  'cut-columns',
  'wc-count',
  'diff-compare',
  'gzip-stream',
  'bc-arithmetic',
  'tr-normalise',
  'python-script',
  'base64-decode',
];
const sum = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('reference priors', () => {
  it('is versioned and covers exactly the catalogue names', () => {
    expect(REFERENCE_TABLE.version).toBe(REFERENCE_VERSION);
    expect(REFERENCE_VERSION).toMatch(/^ref-\d{4}\.\d+$/);
    expect([...REFERENCE_TABLE.scenarios.keys()].sort()).toEqual([...SCENARIOS].sort());
    expect([...REFERENCE_TABLE.skillsGiven.keys()].sort()).toEqual([...SCENARIOS].sort());
    expect([...REFERENCE_TABLE.skillMarginal.keys()].sort()).toEqual([...SKILLS].sort());
    for (const skills of REFERENCE_TABLE.skillsGiven.values()) expect([...skills.keys()].sort()).toEqual([...SKILLS].sort());
  });

  it('each distribution sums to 1 with its reserved ε for unknown names', () => {
    expect(sum(REFERENCE_TABLE.scenarios) + SCENARIO_EPSILON).toBeCloseTo(1, 12);
    expect(sum(REFERENCE_TABLE.skillMarginal) + SKILL_EPSILON).toBeCloseTo(1, 12);
    for (const skills of REFERENCE_TABLE.skillsGiven.values()) expect(sum(skills) + SKILL_EPSILON).toBeCloseTo(1, 12);
  });

  it('ε is below every known probability, so an unknown name always costs more', () => {
    expect(Math.min(...REFERENCE_TABLE.scenarios.values())).toBeGreaterThan(SCENARIO_EPSILON);
    expect(Math.min(...REFERENCE_TABLE.skillMarginal.values())).toBeGreaterThan(SKILL_EPSILON);
    for (const skills of REFERENCE_TABLE.skillsGiven.values()) expect(Math.min(...skills.values())).toBeGreaterThan(SKILL_EPSILON);
  });

  it('affinities shape the conditional: jq is natural for Kubernetes events, awk for access logs', () => {
    const given = (scenario: string, skill: string) => REFERENCE_TABLE.skillsGiven.get(scenario)!.get(skill)!;
    expect(given('kubernetes-events', 'jq-query')).toBeGreaterThan(given('web-access-log', 'jq-query'));
    expect(given('web-access-log', 'awk-fields')).toBeGreaterThan(given('kubernetes-events', 'awk-fields'));
    expect(REFERENCE_TABLE.scenarios.get('web-access-log')!).toBeGreaterThan(REFERENCE_TABLE.scenarios.get('genomics-fasta')!);
  });
});

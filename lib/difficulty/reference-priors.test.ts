import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_FACTOR, REFERENCE_TABLE, REFERENCE_VERSION, SCENARIO_EPSILON, SKILL_EPSILON } from './reference-priors.ts';
import { composeScenario, composeSkill, DELIVERIES, LAYOUTS, NOISES, scenarioParts, skillParts } from './scenario-names.ts';

const DOMAINS = [
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
const BASE_SKILLS = [
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
  'left-join',
  'busiest-hour',
  'sessions',
  'median',
  'dedupe-composite',
  'top-k-ties',
  'snapshot-diff',
  'above-mean',
  'sql-having',
  'jq-group-by',
  'state-machine',
  'running-total',
  'moving-window',
  'rate-of-change',
  'histogram',
  'max-concurrency',
  'dense-rank',
  'pivot-table',
  'time-gaps',
  'longest-streak',
  'regex-extract',
  'quoted-csv',
  'reconcile',
  'above-upstream',
];
const SCENARIOS = DOMAINS.flatMap((domain) => LAYOUTS.flatMap((layout) => NOISES.map((noise) => composeScenario({ domain, layout, noise }))));
const SKILLS = BASE_SKILLS.flatMap((base) => DELIVERIES.map((delivery) => composeSkill({ base, delivery })));
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

  it('the plain names of each distribution sum to 1 with its reserved ε for unknown names', () => {
    const plain = (m: ReadonlyMap<string, number>, names: string[]) => new Map(names.map((n) => [n, m.get(n)!]));
    expect(sum(plain(REFERENCE_TABLE.scenarios, DOMAINS)) + SCENARIO_EPSILON).toBeCloseTo(1, 12);
    expect(sum(plain(REFERENCE_TABLE.skillMarginal, BASE_SKILLS)) + SKILL_EPSILON).toBeCloseTo(1, 12);
    for (const skills of REFERENCE_TABLE.skillsGiven.values()) expect(sum(plain(skills, BASE_SKILLS)) + SKILL_EPSILON).toBeCloseTo(1, 12);
  });

  it('ε is below every known probability, so an unknown name always costs more', () => {
    expect(Math.min(...REFERENCE_TABLE.scenarios.values())).toBeGreaterThan(SCENARIO_EPSILON);
    expect(Math.min(...REFERENCE_TABLE.skillMarginal.values())).toBeGreaterThan(SKILL_EPSILON);
    for (const skills of REFERENCE_TABLE.skillsGiven.values()) expect(Math.min(...skills.values())).toBeGreaterThan(SKILL_EPSILON);
  });

  it('composed names parse back into their parts, and only those', () => {
    expect(scenarioParts('web-access-log')).toEqual({ domain: 'web-access-log', layout: 'native', noise: 'clean' });
    expect(scenarioParts('web-access-log+csv+crlf')).toEqual({ domain: 'web-access-log', layout: 'csv', noise: 'crlf' });
    expect(scenarioParts('web-access-log+bom')).toEqual({ domain: 'web-access-log', layout: 'native', noise: 'bom' });
    for (const bad of ['web-access-log+crlf+csv', 'web-access-log+native', 'web-access-log+clean', 'a+csv+csv', '+csv'])
      expect(scenarioParts(bad), bad).toBeNull();
    expect(skillParts('awk-fields+gz')).toEqual({ base: 'awk-fields', delivery: 'gz' });
    expect(skillParts('awk-fields+zip')).toBeNull();
  });

  it('layout, noise and delivery are attributes priced near zero: about 0.01 each in −ln p, no turns', () => {
    const cost = (p: number) => -Math.log(p);
    const p = (name: string) => REFERENCE_TABLE.scenarios.get(name)!;
    expect(cost(p('web-access-log+csv+crlf')) - cost(p('web-access-log'))).toBeCloseTo(2 * -Math.log(ATTRIBUTE_FACTOR), 12);
    expect(cost(p('web-access-log+bom')) - cost(p('web-access-log'))).toBeLessThan(0.02);
    const given = REFERENCE_TABLE.skillsGiven.get('web-access-log+jsonl')!;
    expect(cost(given.get('awk-fields+b64')!) - cost(given.get('awk-fields')!)).toBeLessThan(0.02);
    // The conditional depends on the domain alone: a layout does not make a skill fit better.
    expect(REFERENCE_TABLE.skillsGiven.get('web-access-log+jsonl')).toEqual(REFERENCE_TABLE.skillsGiven.get('web-access-log'));
    expect(REFERENCE_TABLE.turns.get('awk-fields+gz')).toBe(REFERENCE_TABLE.turns.get('awk-fields'));
    expect(REFERENCE_TABLE.scenarioTurns.size).toBe(0);
    // A real change costs more than every attribute together: the rarest skill swap in the
    // seed's domain, or moving to a rarer domain.
    const attributes = 3 * -Math.log(ATTRIBUTE_FACTOR);
    expect(cost(p('mail-spool')) - cost(p('web-access-log'))).toBeGreaterThan(attributes);
  });

  it('affinities shape the conditional: jq is natural for Kubernetes events, awk for access logs', () => {
    const given = (scenario: string, skill: string) => REFERENCE_TABLE.skillsGiven.get(scenario)!.get(skill)!;
    expect(given('kubernetes-events', 'jq-query')).toBeGreaterThan(given('web-access-log', 'jq-query'));
    expect(given('web-access-log', 'awk-fields')).toBeGreaterThan(given('kubernetes-events', 'awk-fields'));
    expect(REFERENCE_TABLE.scenarios.get('web-access-log')!).toBeGreaterThan(REFERENCE_TABLE.scenarios.get('genomics-fasta')!);
  });
});

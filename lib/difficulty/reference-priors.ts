import {
  composeScenario,
  composeSkill,
  DELIVERIES,
  LAYOUTS,
  NOISES,
  type Delivery,
  type Layout,
  type Noise,
  type ScenarioParts,
  skillParts,
} from './scenario-names.ts';

// The shipped reference distribution of off-policy difficulty (docs/method.md §2): priors p(σ) over
// scenarios and p(κ | σ) over skills given a scenario. It is deliberately NOT the policy's
// distribution: difficulty must be a property of the environment, measurable without rolling
// out the model being trained, so the numbers come from world knowledge instead.
//
// Where the numbers come from: a judgement of real terminal work, written down once and
// versioned (change any number → bump REFERENCE_VERSION, since stored difficulties name the
// version they were computed under).
// - SCENARIO_WEIGHTS: how often an engineer at a terminal meets each kind of data. Web-server
//   logs, application config and CI output are everyday; sensor feeds, payments ledgers and
//   cron tables are common in some jobs; mail spools, library catalogues and FASTA files are
//   niche.
// - SKILL_WEIGHTS: how often each tool or technique is used at a terminal overall (grep and
//   ad-hoc scripts everywhere; bc and base64 rarely).
// - SKILL_AFFINITY: how much more (> 1) or less (< 1) natural a skill is in a scenario than
//   overall: jq for JSON-shaped data (manifests, API traces, Kubernetes events), awk and
//   sort | uniq -c for line-oriented logs, bc for money and measurements, base64 for MIME mail
//   and Kubernetes secrets, tar and checksums for CI artifacts. Skills not listed keep 1.
// p(κ | σ) ∝ SKILL_WEIGHTS[κ] · SKILL_AFFINITY[σ][κ], normalised per scenario.
//
// Smoothing (so −ln p is finite for names the table does not know, and larger than for any
// name it knows): each distribution reserves a mass ε for the unseen, and the known names share
// the remaining 1 − ε.
// - An unknown scenario gets p(σ) = SCENARIO_EPSILON.
// - An unknown skill gets p(κ | σ) = SKILL_EPSILON, whatever the scenario.
// - A known skill in an unknown scenario backs off to the skill's marginal share,
//   p(κ) = (1 − SKILL_EPSILON) · SKILL_WEIGHTS[κ] / Σ SKILL_WEIGHTS (no affinity is known).
// Every unknown name gets the whole ε rather than a share of it: how many unknown names exist
// is unknowable, and a fixed ε keeps each step's cost independent of the rest of the sequence.
// The test suite checks that ε stays below every known probability.
//
// Composed scenarios (ref-2027.1): a scenario name is `domain[+layout][+noise]`
// (scenario-names.ts). The domains are SCENARIO_WEIGHTS; a domain's data comes in its native
// layout or as a CSV, TSV or JSON Lines export, clean or with the noise real exports carry
// (annotation lines, CRLF line endings, a banner above the data, a byte-order mark).
// - p(σ) = p(domain) · LAYOUT_WEIGHTS[layout] · NOISE_WEIGHTS[noise]: layout and noise are judged
//   independent of the domain (exports are made the same way whatever they hold), so the composed
//   names share the domain's mass and the table still sums to 1 − SCENARIO_EPSILON.
// - p(κ | σ) ∝ SKILL_WEIGHTS[κ] · SKILL_AFFINITY[domain][κ] · LAYOUT_SKILL_AFFINITY[layout][κ]:
//   awk for delimited columns, jq for JSON Lines. Noise does not change which skill fits.
// - Turns are per (scenario, skill) pair: SKILL_TURNS[κ] + NOISE_TURNS[noise] (finding and
//   stripping the noise costs a turn), so a scenario edit can change L.
// - Skills take a delivery parameter, `skill[+gz|+b64]`: the step's files come gzip-compressed
//   or base64-encoded. p(κ+delivery | σ) = p(κ | σ) · DELIVERY_WEIGHTS[delivery] (how data is
//   shipped does not depend on what it is), and the delivery adds DELIVERY_TURNS.
// ref-2026.12 had the 16 domains and 22 skills alone (each is still the same name: native and clean).
//
// L is counted in agent turns, as in the method (not in sequence steps): SKILL_TURNS is how many
// turns (one command and a look at its output each) a competent agent typically spends on one
// step exercising that skill — locating the input, a first attempt, checking the result,
// correcting it. One-liners (wc, cut, grep) take about 3; multi-stage tools (jq over nested
// data, SQL with a schema to read, git archaeology, an ad-hoc script) 5–7. A skill the table does
// not know gets UNKNOWN_SKILL_TURNS, the upper middle of the range: an unfamiliar technique is
// not cheaper than a familiar one. L of a sequence is the sum over its steps. These numbers are
// part of the table: changing one bumps REFERENCE_VERSION like any probability.

export const REFERENCE_VERSION = 'ref-2027.1';

// Below the rarest composed scenario (a niche domain as a TSV with a byte-order mark, ≈ 9e-5).
export const SCENARIO_EPSILON = 0.00005;
// Below the rarest composed skill (a rare skill, base64-delivered, in a scenario it suits badly).
export const SKILL_EPSILON = 0.00001;

export const SCENARIO_WEIGHTS = {
  'web-access-log': 10,
  'app-config': 9,
  'ci-artifacts': 8,
  'auth-syslog': 7,
  'http-api-traces': 7,
  'package-manifest': 7,
  'kubernetes-events': 6,
  'inventory-csv': 6,
  'crontab-schedules': 4,
  'payments-ledger': 4,
  'sensor-telemetry': 4,
  'dns-zone': 3,
  'mail-spool': 2,
  'weather-observations': 2,
  'library-catalog': 1.5,
  'genomics-fasta': 1.5,
} as const satisfies Record<string, number>;

export const SKILL_WEIGHTS = {
  'grep-regex': 10,
  'awk-fields': 7,
  'sort-uniq-count': 7,
  'python-script': 7,
  'sed-rewrite': 6,
  'find-xargs': 6,
  'jq-query': 6,
  'cut-columns': 5,
  'wc-count': 5,
  'git-history': 5,
  'diff-compare': 4,
  'file-permissions': 4,
  'tar-archive': 4,
  'config-parse': 4,
  'gzip-stream': 3,
  'sha256-checksum': 2.5,
  'date-arithmetic': 2.5,
  'sqlite-sql': 2.5,
  'tr-normalise': 2.5,
  'join-tables': 2,
  'bc-arithmetic': 1.5,
  'base64-decode': 1.5,
  // Computations beyond one tool (procedural skills with near misses): everyday ones (a regex
  // with capture groups, per-hour counts, a CSV parser, de-duplication) near 2.5–3; state
  // machines, sessions, moving windows and interval sweeps, which few terminal sessions need, at 1.
  'regex-extract': 3,
  'busiest-hour': 3,
  median: 2.5,
  'dedupe-composite': 2.5,
  'jq-group-by': 2.5,
  'quoted-csv': 2.5,
  'left-join': 2,
  'top-k-ties': 2,
  'snapshot-diff': 2,
  'sql-having': 2,
  'time-gaps': 2,
  'above-mean': 1.5,
  'running-total': 1.5,
  'rate-of-change': 1.5,
  histogram: 1.5,
  'pivot-table': 1.5,
  reconcile: 1.5,
  sessions: 1,
  'state-machine': 1,
  'moving-window': 1,
  'max-concurrency': 1,
  'dense-rank': 1,
  'longest-streak': 1,
} as const satisfies Record<string, number>;

export const SKILL_TURNS = {
  'grep-regex': 3,
  'awk-fields': 4,
  'sort-uniq-count': 3,
  'python-script': 6,
  'sed-rewrite': 4,
  'find-xargs': 4,
  'jq-query': 5,
  'cut-columns': 3,
  'wc-count': 3,
  'git-history': 6,
  'diff-compare': 4,
  'file-permissions': 4,
  'tar-archive': 4,
  'config-parse': 5,
  'gzip-stream': 3,
  'sha256-checksum': 3,
  'date-arithmetic': 5,
  'sqlite-sql': 6,
  'tr-normalise': 3,
  'join-tables': 5,
  'bc-arithmetic': 4,
  'base64-decode': 4,
  // A stated rule to get exactly right (boundaries, tie-breaks, rounding) and a check against it
  // on top of the tool: 5–8 turns.
  'regex-extract': 6,
  'busiest-hour': 5,
  median: 5,
  'dedupe-composite': 5,
  'jq-group-by': 6,
  'quoted-csv': 6,
  'left-join': 5,
  'top-k-ties': 5,
  'snapshot-diff': 6,
  'sql-having': 6,
  'time-gaps': 6,
  'above-mean': 6,
  'running-total': 6,
  'rate-of-change': 6,
  histogram: 6,
  'pivot-table': 6,
  reconcile: 7,
  sessions: 7,
  'state-machine': 8,
  'moving-window': 6,
  'max-concurrency': 7,
  'dense-rank': 6,
  'longest-streak': 6,
} as const satisfies Record<keyof typeof SKILL_WEIGHTS, number>;

export const UNKNOWN_SKILL_TURNS = 5;

export const LAYOUT_WEIGHTS = { native: 0.55, csv: 0.2, jsonl: 0.15, tsv: 0.1 } as const satisfies Record<Layout, number>;
export const NOISE_WEIGHTS = { clean: 0.6, comments: 0.15, crlf: 0.12, banner: 0.08, bom: 0.05 } as const satisfies Record<Noise, number>;
export const DELIVERY_WEIGHTS = { plain: 0.85, gz: 0.1, b64: 0.05 } as const satisfies Record<Delivery, number>;
export const DELIVERY_TURNS = { plain: 0, gz: 1, b64: 1 } as const satisfies Record<Delivery, number>;
export const NOISE_TURNS = { clean: 0, comments: 1, crlf: 1, banner: 1, bom: 1 } as const satisfies Record<Noise, number>;

export type ReferenceScenario = keyof typeof SCENARIO_WEIGHTS;
export type ReferenceSkill = keyof typeof SKILL_WEIGHTS;

export const SKILL_AFFINITY: Record<ReferenceScenario, Partial<Record<ReferenceSkill, number>>> = {
  'web-access-log': {
    'awk-fields': 3,
    'sort-uniq-count': 3,
    'grep-regex': 2,
    'cut-columns': 2,
    'gzip-stream': 2,
    'date-arithmetic': 1.5,
    'sqlite-sql': 0.7,
    'base64-decode': 0.5,
    'jq-query': 0.3,
    'git-history': 0.3,
    'busiest-hour': 3,
    sessions: 2.5,
    'time-gaps': 1.5,
    'top-k-ties': 1.5,
  },
  'payments-ledger': {
    'bc-arithmetic': 4,
    'sqlite-sql': 3,
    'join-tables': 3,
    'awk-fields': 2,
    'date-arithmetic': 2,
    'sort-uniq-count': 1.5,
    'sha256-checksum': 1.5,
    'git-history': 0.3,
    'file-permissions': 0.3,
    reconcile: 4,
    'running-total': 2.5,
    'dedupe-composite': 2,
    'quoted-csv': 2,
  },
  'sensor-telemetry': {
    'bc-arithmetic': 3,
    'awk-fields': 2.5,
    'date-arithmetic': 2.5,
    'python-script': 2,
    'jq-query': 1.5,
    'gzip-stream': 1.5,
    'sort-uniq-count': 1.5,
    'git-history': 0.2,
    'moving-window': 3,
    'rate-of-change': 3,
    'time-gaps': 2.5,
    histogram: 2,
  },
  'package-manifest': {
    'jq-query': 4,
    'sha256-checksum': 2.5,
    'diff-compare': 2,
    'tar-archive': 2,
    'config-parse': 2,
    'git-history': 1.5,
    'sort-uniq-count': 1.2,
    'date-arithmetic': 0.5,
    'bc-arithmetic': 0.3,
    'snapshot-diff': 2.5,
    'jq-group-by': 2,
  },
  'genomics-fasta': {
    'tr-normalise': 3,
    'wc-count': 3,
    'python-script': 3,
    'grep-regex': 2.5,
    'gzip-stream': 2.5,
    'awk-fields': 2,
    'sha256-checksum': 1.5,
    'jq-query': 0.3,
    'file-permissions': 0.3,
    'git-history': 0.2,
    'date-arithmetic': 0.2,
    histogram: 2,
    median: 1.5,
  },
  'mail-spool': {
    'base64-decode': 4,
    'grep-regex': 3,
    'sed-rewrite': 2,
    'date-arithmetic': 1.5,
    'sort-uniq-count': 1.5,
    'jq-query': 0.3,
    'bc-arithmetic': 0.3,
    'dedupe-composite': 2,
    'regex-extract': 2,
  },
  'ci-artifacts': {
    'tar-archive': 4,
    'sha256-checksum': 3,
    'find-xargs': 3,
    'gzip-stream': 3,
    'git-history': 2.5,
    'diff-compare': 2,
    'file-permissions': 2,
    'bc-arithmetic': 0.3,
    'longest-streak': 2.5,
    'max-concurrency': 2,
    'state-machine': 1.5,
  },
  'auth-syslog': {
    'grep-regex': 3,
    'sort-uniq-count': 3,
    'awk-fields': 2.5,
    'date-arithmetic': 2,
    'cut-columns': 1.5,
    'file-permissions': 1.5,
    'jq-query': 0.3,
    'git-history': 0.2,
    sessions: 3,
    'regex-extract': 2,
    'busiest-hour': 2,
  },
  'inventory-csv': {
    'cut-columns': 3,
    'join-tables': 3,
    'sqlite-sql': 3,
    'awk-fields': 2.5,
    'sort-uniq-count': 2,
    'bc-arithmetic': 2,
    'python-script': 1.5,
    'tr-normalise': 1.5,
    'jq-query': 0.3,
    'base64-decode': 0.3,
    'git-history': 0.2,
    'snapshot-diff': 3,
    reconcile: 2.5,
    'quoted-csv': 2.5,
    'pivot-table': 2,
  },
  'dns-zone': {
    'grep-regex': 2.5,
    'config-parse': 2.5,
    'awk-fields': 2,
    'sed-rewrite': 2,
    'diff-compare': 2,
    'sort-uniq-count': 1.5,
    'jq-query': 0.3,
    'sqlite-sql': 0.3,
    'snapshot-diff': 2,
  },
  'kubernetes-events': {
    'jq-query': 4,
    'base64-decode': 2.5,
    'sort-uniq-count': 2,
    'date-arithmetic': 2,
    'grep-regex': 1.5,
    'config-parse': 1.5,
    'sqlite-sql': 0.4,
    'jq-group-by': 3,
    'state-machine': 2.5,
    'longest-streak': 1.5,
  },
  'http-api-traces': {
    'jq-query': 4,
    'sort-uniq-count': 2,
    'awk-fields': 1.5,
    'bc-arithmetic': 1.5,
    'date-arithmetic': 1.5,
    'base64-decode': 1.5,
    'gzip-stream': 1.5,
    'git-history': 0.3,
    'max-concurrency': 2.5,
    'regex-extract': 2,
    median: 2,
  },
  'app-config': {
    'config-parse': 4,
    'sed-rewrite': 3,
    'diff-compare': 3,
    'jq-query': 2,
    'git-history': 2,
    'file-permissions': 2,
    'grep-regex': 1.5,
    'sort-uniq-count': 0.5,
    'bc-arithmetic': 0.3,
    'snapshot-diff': 2.5,
  },
  'crontab-schedules': {
    'date-arithmetic': 4,
    'config-parse': 2.5,
    'awk-fields': 2,
    'grep-regex': 1.5,
    'file-permissions': 1.5,
    'sed-rewrite': 1.5,
    'jq-query': 0.3,
    'max-concurrency': 2.5,
  },
  'library-catalog': {
    'sqlite-sql': 3,
    'join-tables': 2.5,
    'sort-uniq-count': 2,
    'cut-columns': 2,
    'tr-normalise': 2,
    'awk-fields': 1.5,
    'grep-regex': 1.5,
    'git-history': 0.2,
    'dense-rank': 2,
    'left-join': 2,
  },
  'weather-observations': {
    'bc-arithmetic': 3,
    'date-arithmetic': 3,
    'awk-fields': 2.5,
    'cut-columns': 2,
    'sort-uniq-count': 1.5,
    'python-script': 1.5,
    'gzip-stream': 1.2,
    'jq-query': 1,
    'git-history': 0.2,
    'moving-window': 2.5,
    histogram: 2.5,
    'above-mean': 2,
  },
};

export const LAYOUT_SKILL_AFFINITY: Record<Layout, Partial<Record<ReferenceSkill, number>>> = {
  native: {},
  csv: { 'awk-fields': 1.5, 'cut-columns': 1.5, 'sqlite-sql': 1.5, 'join-tables': 1.3, 'python-script': 1.2 },
  tsv: { 'awk-fields': 1.5, 'cut-columns': 1.5, 'join-tables': 1.3 },
  jsonl: { 'jq-query': 2, 'python-script': 1.5, 'awk-fields': 0.5, 'cut-columns': 0.5 },
};

// The normalised table the lookups use (computed once from the weights above).
export interface ReferenceTable {
  version: string;
  scenarioEpsilon: number;
  skillEpsilon: number;
  scenarios: ReadonlyMap<string, number>; // p(σ); sums to 1 − scenarioEpsilon
  skillsGiven: ReadonlyMap<string, ReadonlyMap<string, number>>; // p(κ | σ); each sums to 1 − skillEpsilon
  skillMarginal: ReadonlyMap<string, number>; // backoff p(κ) for unknown σ; sums to 1 − skillEpsilon
  turns: ReadonlyMap<string, number>; // expected agent turns of one step exercising κ
  scenarioTurns: ReadonlyMap<string, number>; // turns a scenario adds to any skill's (its noise)
  pairTurns: ReadonlyMap<string, number>; // fitted turns per pairKey(σ, κ), overriding the sum above
  unknownSkillTurns: number;
  provenance?: string; // how a fitted table was made; the shipped table is documented above
}

export const pairKey = (scenario: string, skill: string): string => `${scenario}\u0000${skill}`;

function normalise(weights: [string, number][], mass: number): Map<string, number> {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  return new Map(weights.map(([name, w]) => [name, (mass * w) / total]));
}

/** Every composed scenario of the catalogue with its weight: domain × layout × noise. */
export function composedScenarioWeights(): [string, ScenarioParts & { weight: number }][] {
  return (Object.entries(SCENARIO_WEIGHTS) as [ReferenceScenario, number][]).flatMap(([domain, w]) =>
    LAYOUTS.flatMap((layout) =>
      NOISES.map((noise): [string, ScenarioParts & { weight: number }] => [
        composeScenario({ domain, layout, noise }),
        { domain, layout, noise, weight: w * LAYOUT_WEIGHTS[layout] * NOISE_WEIGHTS[noise] },
      ]),
    ),
  );
}

// Every skill with every delivery: [composed name, base skill, delivery weight].
function composedSkills(): [string, ReferenceSkill, number][] {
  return (Object.keys(SKILL_WEIGHTS) as ReferenceSkill[]).flatMap((base) =>
    DELIVERIES.map((delivery): [string, ReferenceSkill, number] => [composeSkill({ base, delivery }), base, DELIVERY_WEIGHTS[delivery]]),
  );
}

function buildReferenceTable(): ReferenceTable {
  const skills = composedSkills().map(([name, base, w]): [string, ReferenceSkill, number] => [name, base, w * SKILL_WEIGHTS[base]]);
  const skillsGiven = new Map<string, Map<string, number>>();
  const scenarioTurns = new Map<string, number>();
  const composed = composedScenarioWeights();
  for (const [name, { domain, layout, noise }] of composed) {
    const affinity = SKILL_AFFINITY[domain as ReferenceScenario];
    const layoutAffinity = LAYOUT_SKILL_AFFINITY[layout];
    skillsGiven.set(
      name,
      normalise(
        skills.map(([name, base, w]) => [name, w * (affinity[base] ?? 1) * (layoutAffinity[base] ?? 1)]),
        1 - SKILL_EPSILON,
      ),
    );
    if (NOISE_TURNS[noise] > 0) scenarioTurns.set(name, NOISE_TURNS[noise]);
  }
  return {
    version: REFERENCE_VERSION,
    scenarioEpsilon: SCENARIO_EPSILON,
    skillEpsilon: SKILL_EPSILON,
    scenarios: normalise(
      composed.map(([name, { weight }]) => [name, weight]),
      1 - SCENARIO_EPSILON,
    ),
    skillsGiven,
    skillMarginal: normalise(
      skills.map(([name, , w]) => [name, w]),
      1 - SKILL_EPSILON,
    ),
    turns: new Map(composedSkills().map(([name, base]) => [name, SKILL_TURNS[base] + DELIVERY_TURNS[skillParts(name)!.delivery]])),
    scenarioTurns,
    pairTurns: new Map(),
    unknownSkillTurns: UNKNOWN_SKILL_TURNS,
  };
}

export const REFERENCE_TABLE: ReferenceTable = buildReferenceTable();

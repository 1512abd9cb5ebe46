// The shipped reference distribution of off-policy difficulty (METHOD.md §1): priors p(σ) over
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
// L is counted in agent turns, as in the method (not in sequence steps): SKILL_TURNS is how many
// turns (one command and a look at its output each) a competent agent typically spends on one
// step exercising that skill — locating the input, a first attempt, checking the result,
// correcting it. One-liners (wc, cut, grep) take about 3; multi-stage tools (jq over nested
// data, SQL with a schema to read, git archaeology, an ad-hoc script) 5–7. A skill the table does
// not know gets UNKNOWN_SKILL_TURNS, the upper middle of the range: an unfamiliar technique is
// not cheaper than a familiar one. L of a sequence is the sum over its steps. These numbers are
// part of the table: changing one bumps REFERENCE_VERSION like any probability.

export const REFERENCE_VERSION = 'ref-2026.12';

export const SCENARIO_EPSILON = 0.005;
export const SKILL_EPSILON = 0.002;

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
} as const satisfies Record<keyof typeof SKILL_WEIGHTS, number>;

export const UNKNOWN_SKILL_TURNS = 5;

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
  },
  'mail-spool': {
    'base64-decode': 4,
    'grep-regex': 3,
    'sed-rewrite': 2,
    'date-arithmetic': 1.5,
    'sort-uniq-count': 1.5,
    'jq-query': 0.3,
    'bc-arithmetic': 0.3,
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
  },
  'kubernetes-events': {
    'jq-query': 4,
    'base64-decode': 2.5,
    'sort-uniq-count': 2,
    'date-arithmetic': 2,
    'grep-regex': 1.5,
    'config-parse': 1.5,
    'sqlite-sql': 0.4,
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
  },
  'crontab-schedules': {
    'date-arithmetic': 4,
    'config-parse': 2.5,
    'awk-fields': 2,
    'grep-regex': 1.5,
    'file-permissions': 1.5,
    'sed-rewrite': 1.5,
    'jq-query': 0.3,
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
  },
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
  unknownSkillTurns: number;
}

function normalise(weights: [string, number][], mass: number): Map<string, number> {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  return new Map(weights.map(([name, w]) => [name, (mass * w) / total]));
}

function buildReferenceTable(): ReferenceTable {
  const skills = Object.entries(SKILL_WEIGHTS) as [ReferenceSkill, number][];
  const skillsGiven = new Map<string, Map<string, number>>();
  for (const scenario of Object.keys(SCENARIO_WEIGHTS) as ReferenceScenario[]) {
    const affinity = SKILL_AFFINITY[scenario];
    skillsGiven.set(
      scenario,
      normalise(
        skills.map(([skill, w]) => [skill, w * (affinity[skill] ?? 1)]),
        1 - SKILL_EPSILON,
      ),
    );
  }
  return {
    version: REFERENCE_VERSION,
    scenarioEpsilon: SCENARIO_EPSILON,
    skillEpsilon: SKILL_EPSILON,
    scenarios: normalise(Object.entries(SCENARIO_WEIGHTS), 1 - SCENARIO_EPSILON),
    skillsGiven,
    skillMarginal: normalise(skills, 1 - SKILL_EPSILON),
    turns: new Map(Object.entries(SKILL_TURNS)),
    unknownSkillTurns: UNKNOWN_SKILL_TURNS,
  };
}

export const REFERENCE_TABLE: ReferenceTable = buildReferenceTable();

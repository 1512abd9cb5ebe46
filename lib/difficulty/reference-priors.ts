import { composeScenario, composeSkill, DELIVERIES, LAYOUTS, NOISES, type ScenarioParts } from './scenario-names.ts';

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
// Attributes (ref-2027.2): a scenario name is `domain[+layout][+noise]` and a skill name
// `skill[+gz|+b64]` (scenario-names.ts). The layout (CSV, TSV or JSON Lines export), the noise
// (annotation lines, CRLF line endings, a banner above the data, a byte-order mark) and the
// delivery (gzip-compressed or base64-encoded files) are attributes of a step, not different
// scenarios or skills: the instruction names each one, so an agent undoes it with one command it
// already knows (`gunzip`, `base64 -d`, `tr -d '\r'`, `tail -n +4`). They are priced near zero:
// - p(σ) of a composed scenario is p(domain) · ATTRIBUTE_FACTOR per attribute that is not the
//   default (native layout, clean data), and p(κ+delivery | σ) is p(κ | domain) · ATTRIBUTE_FACTOR
//   when the delivery is not plain. −ln ATTRIBUTE_FACTOR ≈ 0.01, far below the margin an edit must
//   clear (0.05), so an attribute alone never makes a step harder; it can only ride along with a
//   real change of domain or skill.
// - The plain names are the distribution: the domains sum to 1 − SCENARIO_EPSILON, the plain
//   skills given a scenario to 1 − SKILL_EPSILON. An attributed name is not an event of its own
//   but its plain name seen in other packaging, so the composed names are not re-normalised.
// - Attributes add no turns: L counts the turns of the work, and unwrapping is not work.
// - Which skill fits depends on the domain, not on its layout (no layout affinity).
// ref-2027.1 priced the attributes as rare events (one base64 delivery added ≈ +3.8 to D, more
// than eight real scenario generations) and gave noise and deliveries a turn each.
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

export const REFERENCE_VERSION = 'ref-2027.2';

// Below the rarest domain (library catalogues and FASTA files, ≈ 0.018, times two attribute factors).
export const SCENARIO_EPSILON = 0.00005;
// Below the rarest skill (a rare skill, delivered, in a scenario it suits badly).
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
  // A threshold read from another task's output: ordinary shell work, but rarely asked as one step.
  'above-upstream': 1,
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
  // Find and read the earlier answer, then count against it with the boundary right.
  'above-upstream': 6,
} as const satisfies Record<keyof typeof SKILL_WEIGHTS, number>;

export const UNKNOWN_SKILL_TURNS = 5;

// The probability factor of one non-default attribute (a layout other than native, noise other
// than clean, a delivery other than plain): −ln 0.99 ≈ 0.01.
export const ATTRIBUTE_FACTOR = 0.99;

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

// The normalised table the lookups use (computed once from the weights above).
export interface ReferenceTable {
  version: string;
  scenarioEpsilon: number;
  skillEpsilon: number;
  scenarios: ReadonlyMap<string, number>; // p(σ); the plain domains sum to 1 − scenarioEpsilon
  skillsGiven: ReadonlyMap<string, ReadonlyMap<string, number>>; // p(κ | σ); the plain skills of each sum to 1 − skillEpsilon
  skillMarginal: ReadonlyMap<string, number>; // backoff p(κ) for unknown σ; the plain skills sum to 1 − skillEpsilon
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

const factor = (attributes: number): number => ATTRIBUTE_FACTOR ** attributes;

/** Every composed scenario of the catalogue with its parts: domain × layout × noise. */
export function composedScenarios(): [string, ScenarioParts][] {
  return (Object.keys(SCENARIO_WEIGHTS) as ReferenceScenario[]).flatMap((domain) =>
    LAYOUTS.flatMap((layout) => NOISES.map((noise): [string, ScenarioParts] => [composeScenario({ domain, layout, noise }), { domain, layout, noise }])),
  );
}

const scenarioAttributes = ({ layout, noise }: ScenarioParts): number => (layout === 'native' ? 0 : 1) + (noise === 'clean' ? 0 : 1);

// p of every plain name times the attribute factor of every composed name built on it.
function withDeliveries(plain: Map<string, number>): Map<string, number> {
  return new Map(
    [...plain].flatMap(([base, p]) =>
      DELIVERIES.map((delivery): [string, number] => [composeSkill({ base, delivery }), p * factor(delivery === 'plain' ? 0 : 1)]),
    ),
  );
}

function buildReferenceTable(): ReferenceTable {
  const skills = Object.entries(SKILL_WEIGHTS) as [ReferenceSkill, number][];
  const domains = normalise(Object.entries(SCENARIO_WEIGHTS), 1 - SCENARIO_EPSILON);
  const givenDomain = new Map<string, Map<string, number>>(
    (Object.keys(SCENARIO_WEIGHTS) as ReferenceScenario[]).map((domain) => [
      domain,
      withDeliveries(
        normalise(
          skills.map(([name, w]) => [name, w * (SKILL_AFFINITY[domain][name] ?? 1)]),
          1 - SKILL_EPSILON,
        ),
      ),
    ]),
  );
  const composed = composedScenarios();
  return {
    version: REFERENCE_VERSION,
    scenarioEpsilon: SCENARIO_EPSILON,
    skillEpsilon: SKILL_EPSILON,
    scenarios: new Map(composed.map(([name, parts]) => [name, domains.get(parts.domain)! * factor(scenarioAttributes(parts))])),
    skillsGiven: new Map(composed.map(([name, parts]) => [name, givenDomain.get(parts.domain)!])),
    skillMarginal: withDeliveries(normalise(skills, 1 - SKILL_EPSILON)),
    turns: new Map(DELIVERIES.flatMap((delivery) => skills.map(([base]): [string, number] => [composeSkill({ base, delivery }), SKILL_TURNS[base]]))),
    // Noise adds no turns in this table; fitted tables may measure some.
    scenarioTurns: new Map(),
    pairTurns: new Map(),
    unknownSkillTurns: UNKNOWN_SKILL_TURNS,
  };
}

export const REFERENCE_TABLE: ReferenceTable = buildReferenceTable();

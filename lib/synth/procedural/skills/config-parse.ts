// A selection.ini whose active profile overrides [defaults]; the effective category is always the
// step's category (set either in the profile or in the defaults), the threshold a real value of
// that category above its smallest, so `>` instead of `>=` and the defaults' minimum both count
// differently. The active profile keeps its old minimum in a commented-out line above the live one.
import type { Scenario } from '../scenario.ts';
import type { Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

const count = (s: Scenario, compare: string): string =>
  `extract < "$d/${s.fileName}" | awk -F'\\t' -v c="$sel_category" -v m="$sel_min" '$4 == c && $2 + 0 ${compare} m + 0 { n++ } END { print n + 0 }' > "$out"`;

// The effective settings, as `read` gets them from awk; `defaultsOnly` ignores the profile.
const settings = (defaultsOnly: boolean): string =>
  [
    `read -r sel_category sel_min < <(awk -F' *= *' '`,
    `  /^[;#]/ || NF == 0 { next }`,
    `  /^\\[/ { section = substr($0, 2, length($0) - 2); next }`,
    `  { v[section "." $1] = $2 }`,
    ...(defaultsOnly
      ? [`  END { print v["defaults.category"], v["defaults.min_value"] }' "$d/selection.ini")`]
      : [
          `  END { p = "profile:" v["report.profile"]`,
          `        c = ((p ".category") in v) ? v[p ".category"] : v["defaults.category"]`,
          `        m = ((p ".min_value") in v) ? v[p ".min_value"] : v["defaults.min_value"]`,
          `        print c, m }' "$d/selection.ini")`,
        ]),
  ].join('\n');

export const configParse: Skill = {
  name: 'config-parse',
  title: 'parsing an INI config',
  answersInteger: true,
  materialise: ({ scenario, params, rng, records }) => {
    ensureCount(rng, records, 'category', params.category, 3);
    const inCategory = records.filter((r) => r.category === params.category);
    const lowest = Math.min(...inCategory.map((r) => r.value));
    if (inCategory.every((r) => r.value === lowest)) inCategory[0]!.value += 1;
    const threshold = rng.pick(inCategory.filter((r) => r.value > lowest)).value;
    const answer = inCategory.filter((r) => r.value >= threshold).length;
    const decoyCategory = rng.pick(scenario.categories.filter((c) => c !== params.category));
    const show = (units: number): string => (scenario.value.decimals === 0 ? String(units) : (units / 100).toFixed(2));
    const active = rng.pick(['weekly', 'audit']);
    const other = active === 'weekly' ? 'audit' : 'weekly';
    // With the decoy in [defaults], reading only the defaults must still count differently.
    const categoryInProfile = rng.next() < 0.5 && records.filter((r) => r.category === decoyCategory).length !== answer;
    const ini = [
      '; Which records the monthly report counts.',
      '[defaults]',
      `category = ${categoryInProfile ? decoyCategory : params.category}`,
      `min_value = ${show(scenario.value.min)}`,
      '',
      `[profile:${other}]`,
      `category = ${decoyCategory}`,
      `min_value = ${show(rng.int(scenario.value.min, scenario.value.max))}`,
      '',
      `[profile:${active}]`,
      ...(categoryInProfile ? [`category = ${params.category}`] : []),
      `; min_value = ${show(lowest)}`,
      `min_value = ${show(threshold)}`,
      '',
      '[report]',
      `profile = ${active}`,
    ];
    return {
      files: [
        { path: scenario.fileName, content: scenario.render(records) },
        { path: 'selection.ini', content: `${ini.join('\n')}\n` },
      ],
      answer: String(answer),
    };
  },
  task: (s) =>
    `\`DATA/selection.ini\` decides which ${s.nouns.records} of \`DATA/${s.fileName}\` a report counts: \`profile\` in \`[report]\` names the active \`[profile:NAME]\` section, whose keys override those of \`[defaults]\`; lines starting with \`;\` are comments. Count the ${s.nouns.records} whose ${s.nouns.category} equals the effective \`category\` and whose ${s.nouns.value} is at least the effective \`min_value\`. Write the count to OUT.`,
  solve: (s) => [settings(false), count(s, '>=')].join('\n'),
  nearMisses: (s) => [
    { name: 'strictly-greater', why: 'counts values above the minimum, dropping those equal to it', solve: [settings(false), count(s, '>')].join('\n') },
    { name: 'defaults-only', why: 'reads the [defaults] section and ignores the active profile', solve: [settings(true), count(s, '>=')].join('\n') },
    {
      name: 'commented-line-read',
      why: 'greps the key without skipping comments, so the commented-out old minimum wins',
      solve: [
        `ini="$d/selection.ini"`,
        `active=$(grep 'profile =' "$ini" | head -n 1 | sed 's/.*= *//')`,
        `section() { sed -n "/^\\[$1\\]/,/^\\[/p" "$ini"; }`,
        `setting() { v=$(section "profile:$active" | grep "$1 =" | head -n 1 | sed 's/.*= *//'); [ -n "$v" ] || v=$(section defaults | grep "$1 =" | head -n 1 | sed 's/.*= *//'); echo "$v"; }`,
        `sel_category=$(setting category)`,
        `sel_min=$(setting min_value)`,
        count(s, '>='),
      ].join('\n'),
    },
  ],
};

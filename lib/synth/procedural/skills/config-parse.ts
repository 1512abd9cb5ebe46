import type { Skill } from '../skill.ts';

// A selection.ini whose active profile overrides [defaults]; the effective category is always the
// step's category (set either in the profile or in the defaults), the threshold a real value.
export const configParse: Skill = {
  name: 'config-parse',
  title: 'parsing an INI config',
  materialise: ({ scenario, params, rng, records }) => {
    const inCategory = records.filter((r) => r.category === params.category);
    const threshold = rng.pick(inCategory).value;
    const decoyCategory = rng.pick(scenario.categories.filter((c) => c !== params.category));
    const show = (units: number): string => (scenario.value.decimals === 0 ? String(units) : (units / 100).toFixed(2));
    const active = rng.pick(['weekly', 'audit']);
    const other = active === 'weekly' ? 'audit' : 'weekly';
    const categoryInProfile = rng.next() < 0.5;
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
      answer: String(inCategory.filter((r) => r.value >= threshold).length),
    };
  },
  task: (s) =>
    `\`DATA/selection.ini\` decides which ${s.nouns.records} of \`DATA/${s.fileName}\` a report counts: \`profile\` in \`[report]\` names the active \`[profile:NAME]\` section, whose keys override those of \`[defaults]\`; lines starting with \`;\` are comments. Count the ${s.nouns.records} whose ${s.nouns.category} equals the effective \`category\` and whose ${s.nouns.value} is at least the effective \`min_value\`. Write the count to OUT.`,
  solve: (s) =>
    [
      `read -r sel_category sel_min < <(awk -F' *= *' '`,
      `  /^[;#]/ || NF == 0 { next }`,
      `  /^\\[/ { section = substr($0, 2, length($0) - 2); next }`,
      `  { v[section "." $1] = $2 }`,
      `  END { p = "profile:" v["report.profile"]`,
      `        c = ((p ".category") in v) ? v[p ".category"] : v["defaults.category"]`,
      `        m = ((p ".min_value") in v) ? v[p ".min_value"] : v["defaults.min_value"]`,
      `        print c, m }' "$d/selection.ini")`,
      `extract < "$d/${s.fileName}" | awk -F'\\t' -v c="$sel_category" -v m="$sel_min" '$4 == c && $2 + 0 >= m + 0 { n++ } END { print n + 0 }' > "$out"`,
    ].join('\n'),
};

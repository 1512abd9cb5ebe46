import type { Skill } from '../skill.ts';

// Gives about half the texts a numeric suffix, so the digit rewrite has work to do.
export const sedRewrite: Skill = {
  name: 'sed-rewrite',
  title: 'stream rewriting with sed',
  materialise: ({ scenario, params, rng, records }) => {
    const versioned = records.map((r) => (rng.next() < 0.5 ? { ...r, text: `${r.text}-v${rng.int(1, 120)}` } : r));
    const rewritten = versioned.filter((r) => r.category === params.category).map((r) => r.text.replace(/[0-9]+/g, 'N'));
    return { files: [{ path: scenario.fileName, content: scenario.render(versioned) }], answer: rewritten.join('\n') };
  },
  task: (s, p) =>
    `Take the ${s.nouns.text} of every ${s.nouns.record} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`, in file order, and replace every run of digits in it with a single \`N\` (\`build-v12\` becomes \`build-vN\`). Write the rewritten values to OUT, one per line.`,
  solve: (s, p) => `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $5 }' | sed -E 's/[0-9]+/N/g' > "$out"`,
};

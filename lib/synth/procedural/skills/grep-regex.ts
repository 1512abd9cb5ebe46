// Counting error codes with an exact pattern. Every near-miss shape of the code is in the data
// (two digits, four digits, lower case), so a looser pattern counts too many.
import type { Skill } from '../skill.ts';

const CODE = /-ERR[0-9]{3}$/;

// Tags some texts with an error code and others with near-misses, so only the exact pattern counts.
export const grepRegex: Skill = {
  name: 'grep-regex',
  title: 'regular expressions with grep',
  answersInteger: true,
  materialise: ({ scenario, rng, records }) => {
    // Four records chosen at random carry one of each shape, the rest a random one or none.
    const forced = new Map(
      rng
        .shuffle(records.map((_, i) => i))
        .slice(0, 4)
        .map((at, n) => [at, [0, 0.35, 0.45, 0.55][n]!]),
    );
    const tagged = records.map((r, i) => {
      const roll = forced.get(i) ?? rng.next();
      if (roll < 0.3) return { ...r, text: `${r.text}-ERR${rng.int(100, 999)}` };
      if (roll < 0.4) return { ...r, text: `${r.text}-ERR${rng.int(10, 99)}` };
      if (roll < 0.5) return { ...r, text: `${r.text}-err${rng.int(100, 999)}` };
      if (roll < 0.6) return { ...r, text: `${r.text}-ERR${rng.int(1000, 9999)}` };
      return r;
    });
    return {
      files: [{ path: scenario.fileName, content: scenario.render(tagged) }],
      answer: String(tagged.filter((r) => CODE.test(r.text)).length),
    };
  },
  task: (s) =>
    `Some ${s.nouns.text} values in \`DATA/${s.fileName}\` end in an error code. Count the ${s.nouns.records} whose ${s.nouns.text} ends with \`-ERR\` followed by exactly three digits (case-sensitive; \`-ERR12\`, \`-err123\` and \`-ERR1234\` do not count). Write the count to OUT.`,
  solve: (s) => `{ extract < "$d/${s.fileName}" | cut -f5 | grep -Ec -- '-ERR[0-9]{3}$' || true; } > "$out"`,
  nearMisses: (s) => [
    {
      name: 'case-insensitive',
      why: 'matches case-insensitively, so `-err123` counts',
      solve: `{ extract < "$d/${s.fileName}" | cut -f5 | grep -Eic -- '-ERR[0-9]{3}$' || true; } > "$out"`,
    },
    {
      name: 'unanchored',
      why: 'does not anchor the pattern at the end, so `-ERR1234` counts',
      solve: `{ extract < "$d/${s.fileName}" | cut -f5 | grep -Ec -- '-ERR[0-9]{3}' || true; } > "$out"`,
    },
    {
      name: 'any-digit-count',
      why: 'accepts any number of digits, so `-ERR12` and `-ERR1234` count',
      solve: `{ extract < "$d/${s.fileName}" | cut -f5 | grep -Ec -- '-ERR[0-9]+$' || true; } > "$out"`,
    },
  ],
};

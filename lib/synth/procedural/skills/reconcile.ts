// Reconciliation of two ledgers: per-key totals computed from the records against another
// system's totals, compared as numbers. The other system writes numbers in its own style (1200,
// 1200.0, 1200.50) and each side has a key the other lacks, so a text comparison flags equal
// totals and an inner join misses the one-sided keys.
import type { Skill } from '../skill.ts';
import { a, awkShow, awkUnits, byName, showUnits, unitScale } from './shaping.ts';

// The other system's spelling of a total: trailing zeros of the decimals dropped, or one added.
export function looseNumber(units: number, scale: number, style: number): string {
  const whole = Math.floor(units / scale);
  const cents = units % scale;
  if (scale === 1) return style === 0 ? `${whole}` : `${whole}.0`;
  const exact = `${whole}.${String(cents).padStart(2, '0')}`;
  return style === 0 ? exact.replace(/\.?0+$/, '') : `${exact}0`;
}

export const reconcileSkill: Skill = {
  name: 'reconcile',
  title: 'reconciling two ledgers',
  materialise: ({ scenario, rng, records }) => {
    const scale = unitScale(scenario);
    const ours = new Map<string, number>();
    for (const r of records) ours.set(r.key, (ours.get(r.key) ?? 0) + r.value);
    const keys = rng.shuffle([...ours.keys()]);
    const theirs = new Map(ours);
    const [dropped, changed] = keys;
    theirs.delete(dropped!);
    if (changed !== undefined) theirs.set(changed, ours.get(changed)! + rng.int(1, 3) * scale);
    theirs.set(`${keys[0]}-legacy`, rng.int(scenario.value.min, scenario.value.max));
    // Equal totals written in another style, so comparing the text flags them.
    const rows = rng.shuffle([...theirs]).map(([k, units], i) => `${k}\t${looseNumber(units, scale, i % 2 === 0 || k === keys[2] ? 1 : 0)}`);
    const all = [...new Set([...ours.keys(), ...theirs.keys()])].sort(byName);
    const lines = all
      .filter((k) => (ours.get(k) ?? 0) !== (theirs.get(k) ?? 0))
      .map((k) => `${k} ${showUnits(scenario, ours.get(k) ?? 0)} ${showUnits(scenario, theirs.get(k) ?? 0)}`);
    return {
      files: [
        { path: scenario.fileName, content: scenario.render(records) },
        { path: 'other-system.tsv', content: `${rows.join('\n')}\n` },
      ],
      answer: lines.join('\n'),
    };
  },
  task: (s) =>
    `\`DATA/other-system.tsv\` holds another system's total ${s.nouns.value} per ${s.nouns.key} (two tab-separated columns, no header; its numbers may be written with fewer or more decimals than ours, e.g. \`12.5\`, \`12.50\` and \`12.500\` are the same amount). Total the ${s.nouns.value} per ${s.nouns.key} over \`DATA/${s.fileName}\` and reconcile: ${a(s.nouns.key)} missing on one side has total 0 there; totals are equal when they are the same number. Write one line per ${s.nouns.key} whose two totals differ to OUT: the ${s.nouns.key}, our total and the other system's total (both ${s.value.decimals === 0 ? 'as integers' : 'with exactly 2 decimals'}), separated by spaces; lines sorted by ${s.nouns.key} in byte order.`,
  solve: (s) => reconcileAwk(s, 'a[k] != b[k]'),
  nearMisses: (s) => [
    { name: 'inner-join', why: 'compares only the keys present on both sides', solve: reconcileAwk(s, '(k in a) && (k in b) && a[k] != b[k]') },
    {
      name: 'text-comparison',
      why: 'compares the totals as text, so 1200 and 1200.0 differ',
      solve: reconcileAwk(s, `!(k in raw) || !(k in a) || ${awkShow(s, 'a[k]')} != raw[k]`),
    },
  ],
};

// Our totals in smallest units from the records, theirs from the table (read first), compared
// by `differs` over every key seen on either side.
function reconcileAwk(s: Parameters<Skill['task']>[0], differs: string): string {
  return [
    `extract < "$d/${s.fileName}" | awk -F'\\t' 'NR == FNR { b[$1] = ${awkUnits(s)}; raw[$1] = $2; seen[$1]; next } { a[$1] += ${awkUnits(s)}; seen[$1] }`,
    `  END { for (k in seen) if (${differs}) print k, ${awkShow(s, 'a[k] + 0')}, ${awkShow(s, 'b[k] + 0')} }' "$d/other-system.tsv" - | sort > "$out"`,
  ].join('\n');
}
